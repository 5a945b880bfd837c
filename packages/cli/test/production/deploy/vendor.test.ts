// The image's dependencies for an app that reaches its framework by a path outside the app folder
// (as the scaffolds write it): the framework and every workspace package it depends on packed into
// deploy/docker/vendor/ with workspace ranges replaced by versions (read back with the system's tar),
// deploy/docker/package.json pointed at them, a lock file npm ci accepts, nothing outside the app.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { dockerfile } from "../../../src/production/deploy/docker.js";
import { deployTarget } from "../../../src/production/deploy/index.js";
import { writeDockerDependencies } from "../../../src/production/deploy/vendor.js";

const dir = mkdtempSync(join(tmpdir(), "fw-vendor-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A package folder with a package.json and its files. */
function writePackage(folder: string, manifest: Record<string, unknown>, files: Record<string, string>): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "package.json"), JSON.stringify(manifest, null, 2));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(folder, path, ".."), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
}

// A workspace: the framework depends on a kit package by `workspace:*`, linked as pnpm links it.
const workspace = join(dir, "workspace", "packages");
writePackage(
  join(workspace, "kit"),
  {
    name: "@demo/kit",
    version: "1.2.3",
    type: "module",
    exports: { ".": { import: "./dist/index.js" } },
    files: ["dist"],
  },
  { "dist/index.js": "export const kit = 1;\n", "src/index.ts": "export const kit = 1;\n" },
);
writePackage(
  join(workspace, "fw"),
  {
    name: "demo-fw",
    version: "0.4.0",
    type: "module",
    bin: { "demo-fw": "./bin/demo-fw.js" },
    exports: { ".": "./dist/index.js" },
    files: ["dist", "bin"],
    dependencies: { "@demo/kit": "workspace:*" },
    devDependencies: { "@demo/tools": "workspace:^" },
  },
  { "dist/index.js": "export { kit } from '@demo/kit';\n", "bin/demo-fw.js": "#!/usr/bin/env node\n" },
);
mkdirSync(join(workspace, "fw", "node_modules", "@demo"), { recursive: true });
symlinkSync(join(workspace, "kit"), join(workspace, "fw", "node_modules", "@demo", "kit"), "dir");

const app = join(dir, "shop");
const appManifest = `${JSON.stringify({ name: "shop", private: true, type: "module", dependencies: { "demo-fw": `file:${join(workspace, "fw")}` } }, null, 2)}\n`;
writePackage(app, JSON.parse(appManifest) as Record<string, unknown>, { "app.ts": "export const app = {};\n" });
writeFileSync(join(app, "package.json"), appManifest);

describe("the image's dependencies (deploy/docker/)", () => {
  test("the framework and its workspace packages packed, the app's package.json pointed at them, a lock file inside the app", () => {
    const written = writeDockerDependencies(app);
    assert.deepEqual(written, [
      "deploy/docker/package.json",
      "deploy/docker/package-lock.json",
      "deploy/docker/package.json.sha256",
      "deploy/docker/vendor/demo-fw-0.4.0.tgz",
      "deploy/docker/vendor/demo-kit-1.2.3.tgz",
    ]);

    const listed = spawnSync("tar", ["-tzf", join(app, "deploy/docker/vendor/demo-fw-0.4.0.tgz")], {
      encoding: "utf8",
    });
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(listed.stdout.trim().split("\n").sort(), [
      "package/bin/demo-fw.js",
      "package/dist/index.js",
      "package/package.json",
    ]);
    const packed = JSON.parse(
      spawnSync("tar", ["-xzOf", join(app, "deploy/docker/vendor/demo-fw-0.4.0.tgz"), "package/package.json"], {
        encoding: "utf8",
      }).stdout,
    ) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    assert.deepEqual(packed.dependencies, { "@demo/kit": "1.2.3" }, "workspace:* became the kit's version");
    assert.deepEqual(packed.devDependencies, {}, "a development tool reached by a workspace range is not kept");

    const docker = JSON.parse(readFileSync(join(app, "deploy/docker/package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      overrides: Record<string, string>;
    };
    assert.deepEqual(docker.dependencies, { "demo-fw": "file:deploy/docker/vendor/demo-fw-0.4.0.tgz" });
    assert.deepEqual(docker.overrides, {
      "demo-fw": "$demo-fw",
      "@demo/kit": "file:deploy/docker/vendor/demo-kit-1.2.3.tgz",
    });
    const lock = JSON.parse(readFileSync(join(app, "deploy/docker/package-lock.json"), "utf8")) as {
      packages: Record<string, { resolved?: string; version?: string }>;
    };
    assert.equal(lock.packages["node_modules/demo-fw"]?.resolved, "file:deploy/docker/vendor/demo-fw-0.4.0.tgz");
    assert.equal(lock.packages["node_modules/@demo/kit"]?.resolved, "file:deploy/docker/vendor/demo-kit-1.2.3.tgz");
    assert.equal(
      readFileSync(join(app, "package.json"), "utf8"),
      appManifest,
      "the app's own package.json is left as it is",
    );
    assert.equal(
      readFileSync(join(app, "deploy/docker/package.json.sha256"), "utf8"),
      `${createHash("sha256").update(appManifest).digest("hex")}  package.json\n`,
    );

    // What the image's build stage does with it: npm ci in a copy holding deploy/docker/ only.
    const image = join(dir, "image");
    mkdirSync(image);
    spawnSync("cp", ["-r", join(app, "deploy"), image]);
    spawnSync("cp", [join(app, "deploy/docker/package.json"), join(app, "deploy/docker/package-lock.json"), image]);
    const ci = spawnSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: image,
      encoding: "utf8",
    });
    assert.equal(ci.status, 0, `${ci.stdout}${ci.stderr}`);
    assert.equal(readFileSync(join(image, "node_modules/@demo/kit/dist/index.js"), "utf8"), "export const kit = 1;\n");
  });

  test("a second run with nothing changed packs nothing and resolves no lock file; a changed file re-packs its package only", () => {
    // npm on the PATH behind a recorder of its subcommands (pack, install).
    const real = spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).stdout.trim();
    assert.ok(real, "npm on the PATH");
    const spy = join(dir, "npm-spy");
    const log = join(spy, "calls");
    mkdirSync(spy, { recursive: true });
    writeFileSync(join(spy, "npm"), `#!/bin/sh\necho "$1 $(basename "$PWD")" >> "${log}"\nexec "${real}" "$@"\n`, {
      mode: 0o755,
    });
    const calls = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
    const path = process.env["PATH"];
    process.env["PATH"] = `${spy}:${path}`;
    try {
      writeFileSync(log, "");
      const first = writeDockerDependencies(app);
      const tarballs = () =>
        readdirSync(join(app, "deploy/docker/vendor")).map((file) =>
          createHash("sha256")
            .update(readFileSync(join(app, "deploy/docker/vendor", file)))
            .digest("hex"),
        );
      const before = tarballs();
      const lock = readFileSync(join(app, "deploy/docker/package-lock.json"), "utf8");
      writeFileSync(log, "");
      assert.deepEqual(writeDockerDependencies(app), first, "the same files are listed");
      assert.deepEqual(calls(), [], "nothing packed, no lock file resolved");
      assert.deepEqual(tarballs(), before);
      assert.equal(readFileSync(join(app, "deploy/docker/package-lock.json"), "utf8"), lock);

      writeFileSync(join(workspace, "kit", "dist", "index.js"), "export const kit = 2;\n");
      writeDockerDependencies(app);
      assert.deepEqual(
        calls().map((call) => call.replace(/fw-deploy-lock-\w+$/, "fw-deploy-lock-*")),
        ["pack kit", "install fw-deploy-lock-*"],
        "the kit packed again, then the lock file resolved again",
      );
      const repacked = spawnSync(
        "tar",
        ["-xzOf", join(app, "deploy/docker/vendor/demo-kit-1.2.3.tgz"), "package/dist/index.js"],
        { encoding: "utf8" },
      ).stdout;
      assert.equal(repacked, "export const kit = 2;\n");
      // A tarball changed on disk since is packed again, whatever the cache says.
      writeFileSync(log, "");
      writeFileSync(join(app, "deploy/docker/vendor/demo-fw-0.4.0.tgz"), "not a tarball");
      writeDockerDependencies(app);
      assert.deepEqual(calls()[0], "pack fw");
    } finally {
      process.env["PATH"] = path;
      writeFileSync(join(workspace, "kit", "dist", "index.js"), "export const kit = 1;\n");
    }
  });

  test("the image build stops when package.json changed after the deploy command ran", () => {
    writeDockerDependencies(app);
    // The Dockerfile's own check, run as its RUN step runs (its continuation line joined as docker joins it; sh in the app folder).
    const step = /^RUN (sha256sum [^\n]*\\\n[^\n]*)$/m
      .exec(dockerfile(deployTarget(app, "fw-b")))![1]!
      .replace("\\\n", " ");
    const check = () => spawnSync("sh", ["-c", step], { cwd: app, encoding: "utf8" });
    assert.equal(check().status, 0, check().stderr);
    writeFileSync(join(app, "package.json"), appManifest.replace('"private"', '"version": "1.0.0",\n  "private"'));
    const changed = check();
    assert.notEqual(changed.status, 0);
    assert.match(
      changed.stderr,
      /package\.json changed since deploy\/docker\/ was written: run the fw-b deploy command again/,
    );
    writeDockerDependencies(app);
    assert.equal(check().status, 0, "a new run of the deploy command brings deploy/docker/ up to date");
    writeFileSync(join(app, "package.json"), appManifest);
  });

  test("a second run after an upgrade replaces the packed copies; a framework never built is refused", () => {
    const manifest = JSON.parse(readFileSync(join(workspace, "fw", "package.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(workspace, "fw", "package.json"), JSON.stringify({ ...manifest, version: "0.5.0" }));
    writeDockerDependencies(app);
    assert.deepEqual(readdirSync(join(app, "deploy/docker/vendor")).sort(), [
      "demo-fw-0.5.0.tgz",
      "demo-kit-1.2.3.tgz",
    ]);
    rmSync(join(workspace, "fw", "dist"), { recursive: true });
    assert.throws(
      () => writeDockerDependencies(app),
      (error: Error & { code?: string }) =>
        error.code === "E_DEPLOY_VENDOR" && /no dist\/index\.js: build it first/.test(error.message),
    );
  });
});
