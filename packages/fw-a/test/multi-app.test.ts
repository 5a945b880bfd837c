// Multi-application: one codebase declares several apps; one is picked by name, and one can be
// mounted under a path prefix of another.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadAppDefinition, printRoutes } from "@fwkit/cli";
import { createApp, defineApp, FwA } from "../src/index.js";
import { inject } from "../src/testing/index.js";

const root = fileURLToPath(new URL("./multi-app", import.meta.url));
const fixtureConfig = { env: "test", logRequests: false, batteries: { security: false, data: false, services: false } };

test("an app is picked by name and serves only its own view modules", async () => {
  const api = await (await loadAppDefinition(root, "api")).create();
  assert.deepEqual(
    api.table.routes.map((r) => r.path),
    ["/status/"],
  );
  assert.deepEqual(JSON.parse((await inject(api, "/status/")).body), { ok: true, self: "/status/" });
  assert.equal((await inject(api, "/")).statusCode, 404);
  await api.close();
});

test("the first declared app is the default, and APP_NAME picks another", async () => {
  assert.equal((await loadAppDefinition(root)).name, "site");
  process.env["APP_NAME"] = "api";
  try {
    assert.equal((await loadAppDefinition(root)).name, "api");
  } finally {
    delete process.env["APP_NAME"];
  }
  await assert.rejects(loadAppDefinition(root, "nope"), { code: "E_UNKNOWN_APP" });
});

test("a mounted app answers under its prefix, with URLs that include it", async () => {
  const site = await (await loadAppDefinition(root, "site")).create();
  assert.equal((await inject(site, "/")).body, "site home; api at /about/");
  const mounted = await inject(site, "/api/status/");
  assert.equal(mounted.statusCode, 200);
  assert.deepEqual(JSON.parse(mounted.body), { ok: true, self: "/api/status/" });
  const redirect = await inject(site, "/api/status");
  assert.equal(redirect.statusCode, 308);
  assert.equal(redirect.headers["location"], "/api/status/");
  assert.equal((await inject(site, "/api/nothing/")).statusCode, 404);
  await site.close();
});

test("routes lists the mounted app's routes under its prefix (text and --json)", async () => {
  const printed: string[] = [];
  await printRoutes({ root, appName: "site", print: (text) => printed.push(text) });
  assert.match(printed[0]!, /^GET\s+\/api\/status\/\s+api:Status\.index\s+json$/m);
  assert.match(printed[0]!, /^GET\s+\/about\/\s+site:Index\.about/m);
  await printRoutes({ root, appName: "site", json: true, print: (text) => printed.push(text) });
  const listing = JSON.parse(printed[1]!) as Array<{ path: string; handler: string; mount?: string }>;
  assert.deepEqual(
    listing.map((r) => [r.path, r.handler, r.mount]),
    [
      ["/", "Index.index", undefined],
      ["/about/", "Index.about", undefined],
      ["/api/status/", "Status.index", "/api"],
    ],
  );
});

test("a parent route under a mount prefix is refused at start-up, naming both", async () => {
  class Api extends FwA {
    index() {
      return "hidden by the mount";
    }
  }
  const api = defineApp({ root, name: "api", views: ["api"], config: fixtureConfig });
  await assert.rejects(
    createApp({
      root,
      modules: [{ name: "api-page", exports: { Api } }],
      config: fixtureConfig,
      mounts: { "/api": api },
    }),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_MOUNT_OVERLAP");
      assert.match(
        error.message,
        /The app mounted at \/api would hide the route GET \/api\/ \(Api\.index\(\) in views\/api-page\)/,
      );
      return true;
    },
  );
});
