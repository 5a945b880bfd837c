import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Offers the workspace's compiled better-sqlite3 to an `npm install` outside the repository as a
 * local prebuilt binary: writes it into `dir` under the name prebuild-install looks for and returns
 * the environment that points the install at it (`npm_config_better_sqlite3_local_prebuilds`).
 * This machine cannot download the published prebuilt binaries, and compiling one takes minutes;
 * an install that resolves another version of better-sqlite3 finds no file here and compiles,
 * which is as correct, only slower.
 */
export function localSqlitePrebuilds(dir: string): Record<string, string> {
  const workspace = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "data", "node_modules", "better-sqlite3");
  const sqlite = realpathSync(workspace);
  const version = (JSON.parse(readFileSync(join(sqlite, "package.json"), "utf8")) as { version: string }).version;
  mkdirSync(dir, { recursive: true });
  const tarball = join(
    dir,
    `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`,
  );
  const packed = spawnSync("tar", ["czf", tarball, "build/Release/better_sqlite3.node"], {
    cwd: sqlite,
    encoding: "utf8",
  });
  if (packed.status !== 0) assert.fail(`packing the workspace's better-sqlite3 binding failed: ${packed.stderr}`);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}
