// The `fw-a` executable: parses the command line and reports failures with a non-zero exit.
import { plainStartLine, runCli, runStart } from "@fwkit/cli/start";

// A plain `start` line (the production server with its own options) is read here, without yargs,
// the other commands and the generators, which are about a third of a start's time to its first
// request. Every other line, `start --help` included, goes through the full command line.
const start = plainStartLine(process.argv.slice(2));

await runCli(async () => {
  if (start) return runStart(start);
  const [{ hideBin }, { preloadBeforeTypeScript }] = await Promise.all([import("yargs/helpers"), import("@fwkit/cli")]);
  // Commands that load the app import the framework before tsx: its modules then skip tsx's hooks.
  preloadBeforeTypeScript(new URL("../index.js", import.meta.url).href);
  const { buildCli } = await import("./commands.js");
  await (await buildCli(hideBin(process.argv))).parseAsync();
});
