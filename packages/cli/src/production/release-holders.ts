// Which processes use a release folder. Every process that serves from a release (a cluster worker,
// or the only process of `start --workers 1`) and the release command while it builds and migrates
// leave a file named after their pid in the release's `.pids/` folder; pruning never deletes a
// release with a live pid there. A process that dies without removing its file (SIGKILL) leaves a
// dead pid, which counts for nothing.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The folder inside a release holding one file per process that uses it. */
export const HOLDERS_DIR = ".pids";

/** True while a process with this pid exists (one owned by another user counts). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Records that this process uses the release folder `dir`; returns the function that removes the
 * record (also run at the process's exit). Never throws: a folder it cannot write (a read-only
 * image) is returned as false, and pruning then relies on `current` alone.
 */
export function holdRelease(dir: string, pid = process.pid): { held: boolean; release(): void } {
  const file = join(dir, HOLDERS_DIR, String(pid));
  try {
    mkdirSync(join(dir, HOLDERS_DIR), { recursive: true });
    writeFileSync(file, `${new Date().toISOString()}\n`);
  } catch {
    return { held: false, release: () => {} };
  }
  const release = () => {
    process.off("exit", release);
    rmSync(file, { force: true });
  };
  process.once("exit", release);
  return { held: true, release };
}

/** The live pids recorded in the release folder `dir`. */
export function liveHolders(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, HOLDERS_DIR));
  } catch {
    return [];
  }
  return names.map(Number).filter(pidAlive);
}
