// Every public package as a registry user gets it: packed by pnpm (which replaces `workspace:`
// ranges, as a publish does), then read from the tarball. Each ships its README and the
// repository's LICENSE, its built entry points and executables, no tests or fixtures, and declares
// repository, license, engines and files that exist. Runs against the built packages (dist):
// `npm test` builds first. The tarballs' sizes are reported.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const PNPM = ["-y", "pnpm@10.34.9"];

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  engines?: { node?: string };
  files?: string[];
  exports?: unknown;
  types?: string;
  main?: string;
  bin?: string | Record<string, string>;
  [field: string]: unknown;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;
const publicPackages = readdirSync(join(repoRoot, "packages"))
  .filter((dir) => existsSync(join(repoRoot, "packages", dir, "package.json")))
  .filter((dir) => !readJson<Manifest>(join(repoRoot, "packages", dir, "package.json")).private)
  .sort();

/** Every file an `exports` map can lead to (all conditions, `source` included). */
function exportTargets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value as Record<string, unknown>).flatMap(exportTargets);
}

/**
 * Files that are tests or test fixtures, wherever they sit in the tarball. A scaffold's template of
 * a new app's test (`.tmpl`) is data the init command copies, not a test of the package.
 */
const TEST_FILE = /(^|\/)(test|tests|__tests__|fixtures?)\/|\.(test|spec)\.[cm]?[jt]sx?$/;

describe("the public packages as published", () => {
  const work = mkdtempSync(join(tmpdir(), "published-packages-"));
  const packed = new Map<string, { files: string[]; manifest: Manifest; bytes: number }>();
  after(() => rmSync(work, { recursive: true, force: true }));

  before(() => {
    for (const dir of publicPackages) {
      const source = join(repoRoot, "packages", dir);
      assert.ok(existsSync(join(source, "dist")), `build ${dir} first (npm test does): its dist/ is missing`);
      const out = join(work, dir);
      mkdirSync(out);
      const pack = spawnSync("npx", [...PNPM, "pack", "--pack-destination", out], {
        cwd: source,
        encoding: "utf8",
        env: { ...process.env, npm_config_loglevel: "error" },
      });
      assert.equal(pack.status, 0, `pnpm pack in packages/${dir}:\n${pack.stdout}${pack.stderr}`);
      const tarball = readdirSync(out).find((file) => file.endsWith(".tgz"));
      assert.ok(tarball, `pnpm pack wrote no tarball for ${dir}`);
      const file = join(out, tarball);
      const listing = spawnSync("tar", ["-tzf", file], { encoding: "utf8" });
      assert.equal(listing.status, 0, listing.stderr);
      const extract = spawnSync("tar", ["-xzf", file, "-C", out, "package/package.json"], { encoding: "utf8" });
      assert.equal(extract.status, 0, extract.stderr);
      packed.set(dir, {
        files: listing.stdout
          .split("\n")
          .filter(Boolean)
          .map((path) => path.replace(/^package\//, "")),
        manifest: readJson<Manifest>(join(out, "package", "package.json")),
        bytes: statSync(file).size,
      });
    }
  });

  test("there are fourteen public packages", () => {
    assert.equal(publicPackages.length, 14, publicPackages.join(", "));
  });

  test("each ships README.md and the repository's LICENSE (MIT), and no test or fixture file", () => {
    const license = readFileSync(join(repoRoot, "LICENSE"), "utf8");
    assert.match(license, /^MIT License/);
    for (const [dir, { files }] of packed) {
      assert.ok(files.includes("README.md"), `${dir} ships README.md`);
      assert.ok(files.includes("LICENSE"), `${dir} ships LICENSE`);
      assert.equal(readFileSync(join(repoRoot, "packages", dir, "LICENSE"), "utf8"), license, `${dir}/LICENSE`);
      assert.deepEqual(
        files.filter((path) => TEST_FILE.test(path) && !path.endsWith(".tmpl")),
        [],
        `${dir} ships no tests or fixtures`,
      );
    }
  });

  test("each ships its build without TypeScript sources or source maps, and exports no source condition", () => {
    // The `source` condition (exports -> src/*.ts) serves the workspace's own tests and typecheck
    // (--conditions=source, customConditions); a registry user runs dist/, so the published
    // manifest (publishConfig.exports, which pnpm writes into the tarball) leaves it and src/ out.
    const withoutSource = (value: unknown): unknown =>
      value !== null && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>)
              .filter(([condition]) => condition !== "source")
              .map(([condition, target]) => [condition, withoutSource(target)]),
          )
        : value;
    for (const [dir, { files, manifest }] of packed) {
      const workspace = readJson<Manifest>(join(repoRoot, "packages", dir, "package.json"));
      assert.deepEqual(
        manifest.exports,
        withoutSource(workspace.exports),
        `${dir}: publishConfig.exports is exports without source`,
      );
      assert.deepEqual(
        files.filter(
          (path) =>
            /^src\//.test(path) ||
            path.endsWith(".map") ||
            (/\.ts$/.test(path) && !path.endsWith(".d.ts") && !path.startsWith("scaffold/")),
        ),
        [],
        `${dir} ships no sources or source maps`,
      );
    }
  });

  test("each declares repository, license, engines and files that exist", () => {
    const root = readJson<Manifest>(join(repoRoot, "package.json"));
    for (const [dir, { manifest }] of packed) {
      assert.equal(manifest.license, "MIT", dir);
      assert.equal(manifest.repository?.url, root.repository?.url, `${dir}: repository.url is the repository's`);
      assert.equal(manifest.repository?.directory, `packages/${dir}`, `${dir}: repository.directory`);
      assert.equal(manifest.engines?.node, root.engines?.node, `${dir}: engines.node is the repository's`);
      assert.ok(manifest.files && manifest.files.length > 0, `${dir} declares files`);
      for (const entry of manifest.files)
        if (!entry.startsWith("!") && !entry.includes("*"))
          assert.ok(
            existsSync(join(repoRoot, "packages", dir, entry)),
            `${dir}'s files lists ${entry}, which does not exist`,
          );
    }
  });

  test("workspace: ranges are replaced by versions, and every exports, types, main and bin target is in the tarball", () => {
    for (const [dir, { files, manifest }] of packed) {
      for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
        const specs = (manifest[field] ?? {}) as Record<string, string>;
        for (const [name, spec] of Object.entries(specs))
          assert.doesNotMatch(spec, /^workspace:/, `${dir}: ${field}.${name} is ${spec}`);
      }
      const bins = typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {});
      const targets = [...exportTargets(manifest.exports), manifest.types, manifest.main, ...bins].filter(
        (target): target is string => typeof target === "string",
      );
      assert.ok(targets.length > 0, `${dir} has entry points`);
      for (const target of targets)
        assert.ok(files.includes(target.replace(/^\.\//, "")), `${dir}: ${target} is not in the tarball`);
    }
  });

  test("the tarballs' sizes", (t) => {
    let total = 0;
    for (const [dir, { bytes, files }] of packed) {
      total += bytes;
      t.diagnostic(`${dir}: ${(bytes / 1024).toFixed(1)} kB packed, ${files.length} files`);
    }
    t.diagnostic(`all ${packed.size}: ${(total / 1024).toFixed(1)} kB`);
    assert.ok(total > 0);
  });
});
