// Multi-application: one codebase declares several apps; one is picked by name, and one can be
// mounted under a path prefix of another.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadAppDefinition } from "koa-host/cli";
import { inject } from "../src/testing/index.js";

const root = fileURLToPath(new URL("./multi-app", import.meta.url));

test("an app is picked by name and serves only its own view modules", async () => {
  const api = await (await loadAppDefinition(root, "api")).create();
  assert.deepEqual(api.table.routes.map((r) => r.path), ["/status/"]);
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
