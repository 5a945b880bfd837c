// The `fw-b` executable: parses the command line; a failing command prints why and exits non-zero.
// A plain `start` line is served without the full command line (runExecutable).
import { runExecutable } from "@fwkit/cli/start";

await runExecutable(new URL("../index.js", import.meta.url).href, async (argv) =>
  (await import("./commands.js")).buildCli(argv),
);
