// The `fw-b` executable: parses the command line; a failing command prints why and exits non-zero.
import { hideBin } from "yargs/helpers";
import { preloadBeforeTypeScript, runCli } from "@fwkit/cli";
import { buildCli } from "./commands.js";

// Commands that load the app import the framework before tsx: its modules then skip tsx's hooks.
preloadBeforeTypeScript(new URL("../index.js", import.meta.url).href);

await runCli(async () => {
  await (await buildCli(hideBin(process.argv))).parseAsync();
});
