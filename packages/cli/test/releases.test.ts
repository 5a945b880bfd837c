// Release folders: ids that sort by time, `current` switched by one rename and recorded in
// releases/served, rollback to the release that served before, pruning that counts only releases
// that served and keeps the current one and those a live process holds, and `start` following `current`.
import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { FrameworkError } from "routing-kernel";
import {
  activateRelease,
  currentRelease,
  listReleases,
  newReleaseId,
  rollbackTarget,
  servedReleases,
} from "../src/production/releases.js";
import { holdRelease } from "../src/production/release-holders.js";
import { pruneReleases } from "../src/production/release-prune.js";
import { locateApp } from "../src/production/start.js";

const root = mkdtempSync(join(tmpdir(), "fw-releases-"));
after(() => rmSync(root, { recursive: true, force: true }));

function release(id: string): string {
  mkdirSync(join(root, "releases", id), { recursive: true });
  writeFileSync(join(root, "releases", id, "app.js"), `export const id = "${id}";\n`);
  return id;
}

const refused = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(
    fn,
    (error: unknown) => error instanceof FrameworkError && error.code === "E_RELEASE" && pattern.test(error.message),
    String(pattern),
  );

describe("release folders", () => {
  test("ids are the UTC second, made unique, and list oldest first (a folder without app.js is no release)", () => {
    const at = new Date("2026-11-27T15:30:00Z");
    assert.equal(newReleaseId(root, at), "20261127153000");
    release("20261127153000");
    assert.equal(newReleaseId(root, at), "20261127153000-2");
    release("20261127153000-2");
    release("20261126090000");
    mkdirSync(join(root, "releases", "20261127160000"));
    assert.deepEqual(listReleases(root), ["20261126090000", "20261127153000", "20261127153000-2"]);
  });

  test("activate points current at a release with a relative link, replacing the old link in one rename", () => {
    assert.equal(currentRelease(root), undefined);
    assert.equal(servedReleases(root), undefined, "no switch recorded yet");
    activateRelease(root, "20261126090000");
    activateRelease(root, "20261127153000");
    assert.equal(readlinkSync(join(root, "current")), join("releases", "20261127153000"));
    activateRelease(root, "20261127153000-2");
    assert.ok(lstatSync(join(root, "current")).isSymbolicLink());
    assert.equal(currentRelease(root), "20261127153000-2");
    assert.deepEqual(
      [...servedReleases(root)!].sort(),
      ["20261126090000", "20261127153000", "20261127153000-2"],
      "every switch is recorded in releases/served",
    );
    refused(() => activateRelease(root, "20261127160000"), /^There is no release 20261127160000 with an app\.js/);
  });

  test("start serves what current points to, ahead of build/", () => {
    mkdirSync(join(root, "build"), { recursive: true });
    writeFileSync(join(root, "build", "app.js"), "");
    assert.deepEqual(locateApp(root), { appRoot: join(root, "current"), built: true });
  });

  test("rollback goes to the newest release older than current, or --to; never past the oldest", () => {
    assert.equal(rollbackTarget(root), "20261127153000");
    activateRelease(root, rollbackTarget(root));
    assert.equal(rollbackTarget(root), "20261126090000");
    assert.equal(rollbackTarget(root, "20261127153000-2"), "20261127153000-2");
    refused(
      () => rollbackTarget(root, "nope"),
      /^There is no release nope; the releases that served are: 20261126090000, 20261127153000, 20261127153000-2\.$/,
    );
    activateRelease(root, "20261126090000");
    refused(() => rollbackTarget(root), /^Release 20261126090000 is the oldest one kept/);
  });

  test("a release that never served is no rollback target, even when it is the newest older one", () => {
    release("20261127000000");
    activateRelease(root, "20261127153000");
    assert.equal(rollbackTarget(root), "20261126090000", "20261127000000 never became current");
    refused(() => rollbackTarget(root, "20261127000000"), /^Release 20261127000000 never served/);
  });

  test("pruning counts only releases that served, removes builds that never served, never the current one nor one a live process holds", () => {
    activateRelease(root, "20261126090000");
    release("20261128000000");
    release("20261129000000");
    activateRelease(root, "20261129000000");
    activateRelease(root, "20261126090000");
    // 20261127153000 is held by a live process (this one): kept though beyond --keep.
    const held = holdRelease(join(root, "releases", "20261127153000"));
    const pruned = pruneReleases(root, 2);
    held.release();
    // Served: 20261126090000 (current), 20261127153000, 20261127153000-2, 20261129000000; the
    // newest two and the current one stay. 20261127000000 and 20261128000000 never served.
    assert.deepEqual(pruned.removed, ["20261127000000", "20261128000000"]);
    assert.deepEqual(pruned.inUse, [{ id: "20261127153000", pids: [process.pid] }]);
    assert.deepEqual(listReleases(root), ["20261126090000", "20261127153000", "20261127153000-2", "20261129000000"]);
    assert.ok(existsSync(join(root, "current", "app.js")));
    assert.deepEqual(pruneReleases(root, 2).removed, ["20261127153000"], "no longer held");
  });

  test("a releases folder from before releases/served counts every release as served", () => {
    const other = mkdtempSync(join(tmpdir(), "fw-releases-old-"));
    try {
      for (const id of ["20261126090000", "20261127153000"]) {
        mkdirSync(join(other, "releases", id), { recursive: true });
        writeFileSync(join(other, "releases", id, "app.js"), "");
      }
      symlinkSync(join("releases", "20261127153000"), join(other, "current"));
      assert.equal(rollbackTarget(other), "20261126090000");
      assert.deepEqual(pruneReleases(other, 2).removed, []);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test("a current that is not a link is refused, not replaced", () => {
    const other = mkdtempSync(join(tmpdir(), "fw-releases-dir-"));
    try {
      mkdirSync(join(other, "current"));
      refused(() => currentRelease(other), /is not a symbolic link/);
      rmSync(join(other, "current"), { recursive: true });
      symlinkSync("releases/20990101000000", join(other, "current"));
      refused(() => locateApp(other), /points to 20990101000000, which holds no app\.js/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
