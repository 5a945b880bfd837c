// The `fw-a` executable: parses the command line and reports failures with a non-zero exit.
// A plain `start` line is served without the full command line (runExecutable).
import { runExecutable } from "@fwkit/cli/start";

await runExecutable(new URL("../index.js", import.meta.url).href, async (argv) =>
  (await import("./commands.js")).buildCli(argv),
);
