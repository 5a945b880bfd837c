/**
 * The `openapi` config block is checked at start-up, also where nothing is served: `servers` as a
 * bare string (which once became `{"0":"h",...}` in the document) stops the app with
 * E_OPENAPI_OPTION naming the key; URLs and `{ url, description }` objects are accepted.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createHost } from "../src/plugin-api.js";
import { conventions, testResponder } from "./fixtures.js";

const build = (openapi: Record<string, unknown>) =>
  createHost({
    root: process.cwd(),
    conventions,
    responder: () => testResponder,
    modules: [],
    config: { env: "test", logRequests: false, openapi } as never,
  });

test("openapi.servers of the wrong shape stops the start with E_OPENAPI_OPTION, served or not", async () => {
  for (const openapi of [
    { servers: "http://api.example.com" },
    { servers: "http://api.example.com", serve: false },
    { servers: [{ link: "https://x.example" }] },
  ]) {
    await assert.rejects(build(openapi), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_OPENAPI_OPTION", JSON.stringify(openapi));
      assert.match(error.message, /servers/);
      assert.match(error.message, /the openapi config block/);
      return true;
    });
  }
  await assert.rejects(build({ title: 42 }), { code: "E_OPENAPI_OPTION" });
  const host = await build({
    servers: ["https://api.example.com", { url: "/", description: "This server" }],
    description: "Posts",
  });
  await host.close();
});
