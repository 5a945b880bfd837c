// The `fw-a` executable: parses the command line and reports failures with a non-zero exit.
import { hideBin } from "yargs/helpers";
import { runCli } from "koa-host/cli";
import { buildCli } from "./commands.js";

await runCli(async () => {
  await (await buildCli(hideBin(process.argv))).parseAsync();
});
