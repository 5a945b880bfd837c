// The server bundle a build writes: `start` serves the app from it (the start code, the framework
// and the app's files in one module), each module keeping its own location and class names, and
// falls back to the build's files, with the reason, when the bundle may not serve.
import assert from "node:assert/strict";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import { buildApp } from "../../src/production/build.js";
import { SERVER_BUNDLE, SERVER_BUNDLE_MANIFEST } from "../../src/production/server-bundle/manifest.js";
import { freePort, get, killAll, runFixture } from "../production-support.js";

// The app is a copy of the production fixture inside this package, so its imports of the
// framework's packages resolve as the fixture's do.
const cache = fileURLToPath(new URL("../../node_modules/.cache/", import.meta.url));
mkdirSync(cache, { recursive: true });
const root = mkdtempSync(join(cache, "server-bundle-app-"));
const build = join(root, "build");
after(() => {
  killAll();
  rmSync(root, { recursive: true, force: true });
});

before(() => {
  cpSync(fileURLToPath(new URL("../production-app/", import.meta.url)), root, { recursive: true });
  // `Router` is also a top-level name of the host (its @koa/router class): bundled together, one of
  // the two is renamed, and the route prefix comes from the class's name.
  writeFileSync(
    join(root, "views", "router.ts"),
    'import { servesBundledModules } from "@fwkit/battery-kit/host";\nimport { FixtureView } from "../lib/base.js";\n\nexport class Router extends FixtureView {\n  index() {\n    return "router";\n  }\n  where() {\n    return import.meta.url;\n  }\n  bundled() {\n    return `${servesBundledModules()} ${process.pid}`;\n  }\n}\n',
  );
});

async function serve(workers = 1): Promise<{ output: () => string; url: string }> {
  const port = await freePort();
  const app = runFixture(
    ["start", "--workers", String(workers), "--port", String(port), "--host", "127.0.0.1"],
    {},
    root,
  );
  await app.waitFor(/Serving on/);
  return { output: () => app.output(), url: `http://127.0.0.1:${port}` };
}

describe("the server bundle", { concurrency: false }, () => {
  test("a build writes it, and start serves from it with each class's name and each file's location", async () => {
    const result = await buildApp({ root });
    assert.ok(result.bundle && "modules" in result.bundle, `bundled: ${JSON.stringify(result.bundle)}`);
    assert.ok(result.bundle.modules > 100, `the framework is in it (${result.bundle.modules} modules)`);
    assert.ok(existsSync(join(build, SERVER_BUNDLE)));
    assert.ok(existsSync(join(build, `${SERVER_BUNDLE}.map`)), "a source map for --enable-source-maps");
    const manifest = JSON.parse(readFileSync(join(build, SERVER_BUNDLE_MANIFEST), "utf8")) as { reads: string[] };
    assert.ok(manifest.reads.length > 0 && manifest.reads.every((dir) => existsSync(dir)));

    const app = await serve();
    assert.match(app.output(), /no cluster, from the build's server bundle/);
    assert.equal((await get(`${app.url}/`)).text, "home");
    assert.equal((await get(`${app.url}/router`)).text, "router");
    assert.equal(
      (await get(`${app.url}/router/where`)).text,
      pathToFileURL(join(realpathSync(build), "views", "router.js")).href,
      "a bundled app file sees its own location in the build",
    );
    assert.match((await get(`${app.url}/router/bundled`)).text, /^true \d+$/);
    killAll();
  });

  test("each cluster worker serves from the bundle too", async () => {
    const app = await serve(2);
    const pids = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const [bundled, pid] = (await get(`${app.url}/router/bundled`)).text.split(" ");
      assert.equal(bundled, "true", `worker ${pid}`);
      pids.add(pid!);
    }
    assert.equal(pids.size, 2, "both workers answered");
    killAll();
  });

  test("made by another version of the command line, moved away from its packages, damaged or failing to load, it does not serve: the build's files do, with the reason", async () => {
    const file = join(build, SERVER_BUNDLE_MANIFEST);
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...manifest, cli: "0.0.0-other" }));
    const app = await serve();
    assert.match(app.output(), /the build's server bundle does not serve: it was made by @fwkit\/cli 0\.0\.0-other/);
    assert.doesNotMatch(app.output(), /from the build's server bundle/);
    assert.equal((await get(`${app.url}/router`)).text, "router");
    assert.match((await get(`${app.url}/router/bundled`)).text, /^false /);
    killAll();

    writeFileSync(file, JSON.stringify({ ...manifest, reads: [join(root, "gone")] }));
    const moved = await serve();
    assert.match(moved.output(), /does not serve: it reads from .*gone, which is gone/);
    assert.equal((await get(`${moved.url}/`)).text, "home");
    killAll();

    // A manifest cut short (a full disk) is a reason too, never a crash of the start.
    writeFileSync(file, JSON.stringify(manifest).slice(0, 20));
    const damaged = await serve();
    assert.match(damaged.output(), /does not serve: .*server-bundle\.json cannot be read/);
    assert.equal((await get(`${damaged.url}/`)).text, "home");
    killAll();
    writeFileSync(file, JSON.stringify(manifest));

    // A bundle that fails while it loads: the files serve, and the start says why.
    const bundle = join(build, SERVER_BUNDLE);
    const code = readFileSync(bundle);
    writeFileSync(bundle, 'throw new Error("a bundle that cannot load");\n');
    try {
      const broken = await serve();
      assert.match(broken.output(), /does not serve: it failed to load \(a bundle that cannot load\)/);
      assert.equal((await get(`${broken.url}/`)).text, "home");
      killAll();
    } finally {
      writeFileSync(bundle, code);
    }
  });

  test("a build killed while it bundles leaves the served build and its bundle whole", async () => {
    const served = statSync(build).ino;
    const building = runFixture(["build"], {}, root);
    // The bundle is written last, into the build's temporary folder: kill the build once it is there.
    const staged = () =>
      readdirSync(root).find((name) => name.startsWith("build.tmp-") && existsSync(join(root, name, SERVER_BUNDLE)));
    while (!staged()) {
      assert.equal(building.child.exitCode, null, `the build ended before bundling:\n${building.recent()}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    building.kill();
    await building.exit("the killed build");
    // Killed before its last step: its temporary folder is left, the served build is the same folder.
    const left = staged();
    assert.ok(left, "the build was killed before it replaced the served one");
    rmSync(join(root, left), { recursive: true, force: true });
    assert.equal(statSync(build).ino, served);
    const app = await serve();
    assert.match(app.output(), /from the build's server bundle/);
    assert.equal((await get(`${app.url}/router`)).text, "router");
    killAll();
  });

  test("a bundle that cannot be made leaves a working build served from its files, and says why", async () => {
    writeFileSync(join(root, "lib", "unused.ts"), 'import data from "./table.wasm";\nexport const size = data;\n');
    writeFileSync(join(root, "lib", "table.wasm"), "");
    try {
      const result = await buildApp({ root });
      assert.ok(result.bundle && "skipped" in result.bundle);
      assert.match(result.bundle.skipped, /lib\/unused\.js:1: .*table\.wasm/);
      assert.equal(existsSync(join(build, SERVER_BUNDLE)), false);
      assert.equal(existsSync(join(build, SERVER_BUNDLE_MANIFEST)), false);
      const app = await serve();
      assert.doesNotMatch(app.output(), /server bundle/);
      assert.equal((await get(`${app.url}/`)).text, "home");
      killAll();
    } finally {
      rmSync(join(root, "lib", "unused.ts"));
      rmSync(join(root, "lib", "table.wasm"));
    }
  });

  test("an app file importing by a computed name makes no bundle: what it loads would not share the bundled framework", async () => {
    writeFileSync(join(root, "lib", "plugins.ts"), "export const load = (name: string) => import(name);\n");
    try {
      const result = await buildApp({ root });
      assert.ok(result.bundle && "skipped" in result.bundle);
      assert.match(result.bundle.skipped, /^lib\/plugins\.js:1 imports a module by a name computed at run time/);
      assert.equal(existsSync(join(build, SERVER_BUNDLE)), false);
    } finally {
      rmSync(join(root, "lib", "plugins.ts"));
    }
  });

  test("--no-bundle writes none", async () => {
    const result = await buildApp({ root, bundle: false });
    assert.equal(result.bundle, undefined);
    assert.equal(existsSync(join(build, SERVER_BUNDLE)), false);
  });
});
