import { FrameworkError } from "routing-kernel";

/** The line a failed command prints: `error: E_CODE: message`. */
export function errorLine(error: unknown): string {
  const message =
    error instanceof FrameworkError ? `${error.code}: ${error.message}` : ((error as Error)?.message ?? String(error));
  return `error: ${message}\n`;
}

/**
 * Runs a CLI's main function: a failure prints its message (and code) to stderr and exits with
 * status 1, so every failing command says why and exits non-zero.
 */
export async function runCli(main: () => Promise<unknown>): Promise<void> {
  try {
    await main();
  } catch (error) {
    process.stderr.write(errorLine(error));
    process.exitCode = 1;
  }
}
