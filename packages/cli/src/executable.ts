import { bundledStart } from "./production/server-bundle/launch.js";
import { plainStartLine } from "./production/start-line.js";
import { runCli } from "./run-cli.js";

/** The full command line of a framework, built for the arguments after the executable's name. */
export type FullCommandLine = (argv: string[]) => Promise<{ parseAsync(): Promise<unknown> }>;

/**
 * The main function of a framework's executable (`fw-a`, `fw-b`). A plain `start` line (the
 * production server with its own options, {@link plainStartLine}) is served without yargs, the
 * other commands and the generators, which are about a third of a start's time to its first
 * request; the build's server bundle serves it when there is one that may. Every other line,
 * `start --help` included, loads the full command line: the framework's entry (`frameworkEntry`,
 * a URL) is imported before the TypeScript loader, so its modules skip tsx's hooks, and
 * `commandLine` builds the commands. Failures print and exit as {@link runCli}'s.
 */
export async function runExecutable(frameworkEntry: string | undefined, commandLine: FullCommandLine): Promise<void> {
  const start = plainStartLine(process.argv.slice(2));
  await runCli(async () => {
    if (start) {
      // The build's server bundle first: it holds the start code too, so nothing of the framework
      // is loaded from the files beside it.
      const bundle = await bundledStart(start);
      if (bundle && "start" in bundle) return bundle.start(start);
      const { runStart } = await import("./production/start-command.js");
      return runStart(start, bundle?.skipped);
    }
    const [{ hideBin }, { preloadBeforeTypeScript }] = await Promise.all([
      import("yargs/helpers"),
      import("@fwkit/koa-host/operations"),
    ]);
    if (frameworkEntry) preloadBeforeTypeScript(frameworkEntry);
    await (await commandLine(hideBin(process.argv))).parseAsync();
  });
}
