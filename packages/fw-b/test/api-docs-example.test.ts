// The API example of docs/api.md, as written, called by a generated client: the fw-b `Posts` class
// is served from a temporary app, openapi-typescript makes the types of its served document, and an
// openapi-fetch client (no cookies, no CSRF token, as any API client) lists and creates posts.
// A JSON route for other programs must not answer "need a CSRF token".
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkOpenApiClient } from "@fwkit/test-servers/openapi";
import { createApp, type Host } from "../src/index.js";
import type { AddressInfo } from "node:net";

const docs = readFileSync(fileURLToPath(new URL("../../../docs/api.md", import.meta.url)), "utf8");
/** The docs' fw-b example: the second TypeScript block of "Declared schemas". */
const example = /## Declared schemas[\s\S]*?```ts\n[\s\S]*?```[\s\S]*?```ts\n([\s\S]*?)```/.exec(docs)![1]!;

const client = `import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

export async function run(baseUrl: string) {
  const api = createClient<paths>({ baseUrl });
  const listed = await api.GET("/posts", { params: { query: { page: 2 } } });
  const created = await api.POST("/posts/create", { body: { title: "hello", tags: ["a"] } });
  const title: string | undefined = created.data?.title;
  const refused = await api.POST("/posts/create", { body: { title: "x" } });
  return { page: (listed.data as { page?: number } | undefined)?.page, createdStatus: created.response.status, title, refusedStatus: refused.response.status };
}
`;
const forbidden = `import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const api = createClient<paths>({ baseUrl: "http://127.0.0.1" });
// @ts-expect-error the title is a string
void api.POST("/posts/create", { body: { title: 42 } });
`;

describe("fw-b: docs/api.md's example from a generated client", () => {
  let root = "";
  let host: Host;
  let url = "";
  before(async () => {
    // Inside the package, so the example's `fw-b` and `zod` imports resolve as in an app.
    root = mkdtempSync(fileURLToPath(new URL("./.docs-api-", import.meta.url)));
    mkdirSync(join(root, "views"));
    writeFileSync(join(root, "views/posts.ts"), example);
    host = await createApp({
      root,
      config: {
        env: "test",
        logRequests: false,
        dbUrl: "sqlite::memory:",
        secretKey: "docs-api-example-secret-key-0123456789",
      },
    });
    url = `http://127.0.0.1:${((await host.listen(0, "127.0.0.1")).address() as AddressInfo).port}`;
  });
  after(async () => {
    await host?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("openapi-fetch lists and creates posts: 200, not a CSRF refusal; bad input is a 422", async () => {
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as object;
    const checked = await checkOpenApiClient<{ run(baseUrl: string): Promise<Record<string, unknown>> }>({
      document,
      client,
      forbidden,
    });
    try {
      assert.deepEqual(await checked.module.run(url), {
        page: 2,
        createdStatus: 200,
        title: "hello",
        refusedStatus: 422,
      });
    } finally {
      checked.cleanup();
    }
  });
});
