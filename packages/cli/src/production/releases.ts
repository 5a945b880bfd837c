// Release folders, as Capistrano and Kamal keep them: every release is a build of its own under
// `releases/<id>/`, and `current` is a symbolic link to the one that serves. The link is switched
// in one rename (a new link under a temporary name, renamed over `current`), so a process that
// starts at any instant finds either the old release or the new one, whole. Each switch is
// appended to `releases/served`: a release that never became `current` (a build interrupted
// during its migrations) is never a rollback target.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { basename, join } from "node:path";
import { E_RELEASE } from "../errors.js";

/** The folder holding the releases, under the app folder. */
export const RELEASES_DIR = "releases";
/** The link to the serving release, under the app folder. */
export const CURRENT_LINK = "current";
/** Releases kept by default (the current one and the four that served before it). */
export const DEFAULT_KEEP = 5;
/** The file under `releases/` listing every switch of `current`: `<id> <ISO time>` a line. */
export const SERVED_FILE = "served";

/** What a release id looks like (`20261127153000`, `20261127153000-2`). */
export const RELEASE_ID = /^\d{14}(-\d+)?$/;

/** A new release id: the UTC time to the second (`20261127153000`), made unique in `root`. */
export function newReleaseId(root: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/\D/g, "").slice(0, 14);
  let id = stamp;
  for (let n = 2; existsSync(join(root, RELEASES_DIR, id)); n++) id = `${stamp}-${n}`;
  return id;
}

/** The release ids under `root/releases`, oldest first (ids sort by time). */
export function listReleases(root: string): string[] {
  const dir = join(root, RELEASES_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && RELEASE_ID.test(entry.name) && existsSync(join(dir, entry.name, "app.js")),
    )
    .map((entry) => entry.name)
    .sort((a, b) => compareIds(a, b));
}

/** Orders release ids by time (then by their `-n` suffix). */
export function compareIds(a: string, b: string): number {
  const [stampA, nA = "1"] = a.split("-");
  const [stampB, nB = "1"] = b.split("-");
  return stampA === stampB ? Number(nA) - Number(nB) : stampA! < stampB! ? -1 : 1;
}

/** The id `current` points to, or undefined when there is no `current` link. */
export function currentRelease(root: string): string | undefined {
  const link = join(root, CURRENT_LINK);
  try {
    if (!lstatSync(link).isSymbolicLink())
      throw new E_RELEASE(`${link} is not a symbolic link; move it away: the release commands own it`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return basename(readlinkSync(link));
}

/** Points `current` at release `id` in one rename (a relative link: the app folder may move). */
export function activateRelease(root: string, id: string): void {
  if (!existsSync(join(root, RELEASES_DIR, id, "app.js")))
    throw new E_RELEASE(`there is no release ${id} with an app.js under ${join(root, RELEASES_DIR)}`);
  currentRelease(root);
  const temporary = join(root, `${CURRENT_LINK}.tmp-${process.pid}`);
  rmSync(temporary, { force: true });
  symlinkSync(join(RELEASES_DIR, id), temporary);
  renameSync(temporary, join(root, CURRENT_LINK));
  appendFileSync(join(root, RELEASES_DIR, SERVED_FILE), `${id} ${new Date().toISOString()}\n`);
}

/**
 * The releases that became `current` at some point (the `served` file, and `current` itself).
 * Undefined for a releases folder written before the file existed: every release then counts.
 */
export function servedReleases(root: string): Set<string> | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, RELEASES_DIR, SERVED_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const served = new Set(text.split("\n").flatMap((line) => line.split(" ", 1).filter((id) => RELEASE_ID.test(id))));
  const current = currentRelease(root);
  if (current !== undefined) served.add(current);
  return served;
}

/**
 * The release to go back to: `to` when given, else the newest release older than the current
 * one that has served (a build whose release was interrupted never did: its code may need a
 * migration that was never applied). Refused when there is none (naming the releases there are).
 */
export function rollbackTarget(root: string, to?: string): string {
  const served = servedReleases(root);
  const releases = listReleases(root).filter((id) => served === undefined || served.has(id));
  const current = currentRelease(root);
  if (to !== undefined) {
    if (!releases.includes(to)) {
      const never = served !== undefined && listReleases(root).includes(to);
      throw new E_RELEASE(
        never
          ? `release ${to} never served (its release command was interrupted before the switch), so it is no rollback target; the releases that served are: ${releases.join(", ") || "none"}`
          : `there is no release ${to}; the releases that served are: ${releases.join(", ") || "none"}`,
      );
    }
    return to;
  }
  if (current === undefined)
    throw new E_RELEASE(`there is no ${CURRENT_LINK} link in ${root}: nothing was released yet`);
  const older = releases.filter((id) => compareIds(id, current) < 0);
  if (older.length === 0)
    throw new E_RELEASE(`release ${current} is the oldest one kept that served; there is nothing to roll back to`);
  return older.at(-1)!;
}
