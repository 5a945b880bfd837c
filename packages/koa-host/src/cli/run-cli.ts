import { FrameworkError } from "routing-kernel";

/**
 * Runs a CLI's main function: a failure prints its message (and code) to stderr and exits with
 * status 1, so every failing command says why and exits non-zero.
 */
export async function runCli(main: () => Promise<unknown>): Promise<void> {
  try {
    await main();
  } catch (error) {
    const message = error instanceof FrameworkError ? `${error.code}: ${error.message}` : (error as Error)?.message ?? String(error);
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
  }
}
