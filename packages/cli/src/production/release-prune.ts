// Pruning the releases folder after a release. What counts towards `--keep` is the releases that
// served (became `current`); a build that never served is of no use (it is never a rollback
// target) and goes once no process uses it. A release a live process serves from is never removed,
// whatever its age: its workers read templates and static files from it until they are replaced.
import { readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { liveHolders, pidAlive } from "./release-holders.js";
import { CURRENT_LINK, compareIds, currentRelease, listReleases, RELEASES_DIR, servedReleases } from "./releases.js";

/** What {@link pruneReleases} did. */
export interface PruneResult {
  /** Releases removed: served ones beyond `keep`, and builds that never served. */
  readonly removed: readonly string[];
  /** Leftovers of interrupted commands removed (`<id>.tmp-<pid>` and the like, their pid dead). */
  readonly leftovers: readonly string[];
  /** Releases that would have gone but a live process serves from (its pids). */
  readonly inUse: ReadonlyArray<{ readonly id: string; readonly pids: readonly number[] }>;
}

// Temporary names the build, the switch and pruning use, each ending in the pid of its process.
const LEFTOVER = [/^.+\.tmp-(\d+)$/, /^.+\.old-(\d+)$/, /^\.removing-.+-(\d+)$/];

function deadLeftovers(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => {
    const pid = LEFTOVER.map((pattern) => pattern.exec(name)?.[1]).find((match) => match !== undefined);
    return pid !== undefined && !pidAlive(Number(pid));
  });
}

/**
 * Removes the served releases beyond the newest `keep`, the builds that never served, and the
 * leftovers of interrupted commands whose process is gone; never the current release, never one
 * a live process serves from. A folder is renamed out of the list before it is deleted, so no
 * half-deleted release is listed.
 */
export function pruneReleases(root: string, keep: number): PruneResult {
  const dir = join(root, RELEASES_DIR);
  const current = currentRelease(root);
  const served = servedReleases(root);
  const releases = listReleases(root);
  const counted = releases.filter((id) => served === undefined || served.has(id)).sort(compareIds);
  const beyond = new Set(counted.slice(0, Math.max(0, counted.length - keep)));
  const candidates = releases.filter((id) => id !== current && (beyond.has(id) || !counted.includes(id)));
  const removed: string[] = [];
  const inUse: Array<{ id: string; pids: number[] }> = [];
  for (const id of candidates) {
    const pids = liveHolders(join(dir, id));
    if (pids.length > 0) {
      inUse.push({ id, pids });
      continue;
    }
    const doomed = join(dir, `.removing-${id}-${process.pid}`);
    renameSync(join(dir, id), doomed);
    rmSync(doomed, { recursive: true, force: true });
    removed.push(id);
  }
  const leftovers = deadLeftovers(dir);
  for (const name of leftovers) rmSync(join(dir, name), { recursive: true, force: true });
  // The switch's temporary link beside `current`.
  for (const name of deadLeftovers(root).filter((entry) => entry.startsWith(`${CURRENT_LINK}.tmp-`))) {
    rmSync(join(root, name), { force: true });
    leftovers.push(name);
  }
  return { removed, leftovers, inUse };
}
