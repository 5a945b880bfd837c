/**
 * The app folder: the folder holding the app's package.json and `.env` file, against which every
 * relative path in config resolves (the SQLite file, local storage and session folders). Running
 * the sources, it is the root. A build (`build/`, a release `releases/<id>/`, reached through the
 * `current` link or not) runs from its own folder but resolves data paths against the app folder
 * it was built from, so `migrate` run in the app folder and `start` run from the build open the
 * same database. The build leaves a mark naming that folder relatively (the app folder may move);
 * a build copied elsewhere, as the content of a container image, finds no package.json there and
 * is its own app folder.
 */
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** The file a build leaves in its folder: the app folder, relative to the build folder. */
export const APP_FOLDER_MARK = ".fw-app-folder";

/** Writes the mark into `dir` (a build being written) for a build that will live at `finalDir`. */
export function markAppFolder(dir: string, finalDir: string, appFolder: string): void {
  writeFileSync(
    join(dir, APP_FOLDER_MARK),
    `${relative(resolve(finalDir), resolve(appFolder)).split("\\").join("/") || "."}\n`,
  );
}

/** The app folder of code running from `root` (absolute): see the file's comment. */
export function appFolderOf(root: string): string {
  const absolute = resolve(root);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    return absolute;
  }
  const mark = join(real, APP_FOLDER_MARK);
  if (!existsSync(mark)) return absolute;
  const folder = resolve(real, readFileSync(mark, "utf8").trim());
  return folder !== real && existsSync(join(folder, "package.json")) ? folder : absolute;
}
