// `fw-a routes` listed the kind `html/text` where the docs name `html`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createApp } from "../src/index.js";

test("the route listing's kinds are the documented ones: html for pages, json for @response.json", async () => {
  const root = fileURLToPath(new URL("./fixture-app", import.meta.url));
  const app = await createApp({
    root,
    config: { env: "test", logRequests: false, batteries: { security: false, data: false, services: false } },
  });
  try {
    const kinds = new Map(app.table.entries.map(({ route }) => [route.id, app.describe(route)]));
    assert.ok(
      [...kinds.values()].every((kind) => kind === "html" || kind === "json"),
      JSON.stringify([...kinds]),
    );
    assert.ok([...kinds].some(([id, kind]) => id.startsWith("Api.") && kind === "json"));
    assert.ok([...kinds].some(([id, kind]) => id.startsWith("Index.") && kind === "html"));
  } finally {
    await app.close();
  }
});
