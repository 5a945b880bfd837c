// The `fw-b` executable: parses the command line; a failing command prints why and exits non-zero.
import { hideBin } from "yargs/helpers";
import { runCli } from "koa-host/cli";
import { buildCli } from "./commands.js";

await runCli(async () => {
  await (await buildCli(hideBin(process.argv))).parseAsync();
});
