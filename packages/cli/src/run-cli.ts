import { FrameworkError } from "routing-kernel";
import { pidAlive } from "./production/release-holders.js";

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
  stopWithReleaseCommand();
  try {
    await main();
  } catch (error) {
    process.stderr.write(errorLine(error));
    process.exitCode = 1;
  }
}

/**
 * Set in the environment of a command the release command runs (its migrations), to the release
 * command's pid: such a child exits when its release command dies, even by SIGKILL (its IPC
 * channel then closes, or the pid is gone before the child got this far), so no migration goes on
 * applying for a release that can no longer switch.
 */
export const RELEASE_CHILD_ENV = "FW_RELEASE_CHILD";

function stopWithReleaseCommand(): void {
  const parent = Number(process.env[RELEASE_CHILD_ENV]);
  if (!Number.isInteger(parent) || parent <= 0) return;
  const gone = () => {
    process.stderr.write("error: the release command that ran this one is gone; stopping\n");
    process.exit(1);
  };
  if (!pidAlive(parent)) {
    gone();
    return;
  }
  // A process further down inherits the variable without the channel: it is not the release's child.
  if (!process.channel) return;
  // The channel alone must not keep the command running once its work is done.
  process.channel.unref();
  process.once("disconnect", gone);
  if (!process.connected) gone();
}
