// A framework-like CLI over the shared production commands, as fw-a and fw-b register them.
import { hideBin } from "yargs/helpers";
import { buildCommand, deployCommand, finishCli, frameworkCli, runCli, startCommand } from "../../src/index.js";

await runCli(async () => {
  const cli = frameworkCli("fixture", hideBin(process.argv))
    .command(buildCommand("build", "fixture"))
    .command(startCommand("start"))
    .command(deployCommand("deploy", "fixture"));
  await finishCli(cli, "fixture").parseAsync();
});
