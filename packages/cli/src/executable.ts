import { plainStartLine, runStart } from "./production/start-command.js";
import { runCli } from "./run-cli.js";

/** The full command line of a framework, built for the arguments after the executable's name. */
export type FullCommandLine = (argv: string[]) => Promise<{ parseAsync(): Promise<unknown> }>;

/**
 * The main function of a framework's executable (`fw-a`, `fw-b`). A plain `start` line (the
 * production server with its own options, {@link plainStartLine}) is served without yargs, the
 * other commands and the generators, which are about a third of a start's time to its first
 * request. Every other line, `start --help` included, loads the full command line: the framework's
 * entry (`frameworkEntry`, a URL) is imported before the TypeScript loader, so its modules skip
 * tsx's hooks, and `commandLine` builds the commands. Failures print and exit as {@link runCli}'s.
 */
export async function runExecutable(frameworkEntry: string | undefined, commandLine: FullCommandLine): Promise<void> {
  const start = plainStartLine(process.argv.slice(2));
  await runCli(async () => {
    if (start) return runStart(start);
    const [{ hideBin }, { preloadBeforeTypeScript }] = await Promise.all([
      import("yargs/helpers"),
      import("@fwkit/koa-host/operations"),
    ]);
    if (frameworkEntry) preloadBeforeTypeScript(frameworkEntry);
    await (await commandLine(hideBin(process.argv))).parseAsync();
  });
}
