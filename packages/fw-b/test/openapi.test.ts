// OpenAPI 3.1 from the route table (issue 18), checked by tools nobody here wrote: the served
// document validates with @readme/openapi-parser, openapi-typescript makes its types, a client
// written with openapi-fetch type-checks with tsc (and calls the document forbids do not), and
// that client then calls the running app on 127.0.0.1. `fw-b :routes --openapi` prints the same.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkOpenApiClient } from "@fwkit/test-servers/openapi";
import type { Host } from "../src/index.js";
import type { AddressInfo } from "node:net";
import { app as definition } from "./api-app/app.js";

const root = fileURLToPath(new URL("./api-app", import.meta.url));
const bin = fileURLToPath(new URL("../bin/fw-b.js", import.meta.url));

type Doc = { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; security?: unknown[]; requestBody?: { content: Record<string, unknown> }; parameters?: Array<{ name: string; in: string }> }>>; components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> } };

const client = `import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

export async function run(baseUrl: string) {
  const api = createClient<paths>({ baseUrl });
  const listed = await api.GET("/posts", { params: { query: { page: 2 } } });
  const created = await api.POST("/posts/create", { body: { title: "hello", tags: ["a"] } });
  const title: string | undefined = created.data?.title;
  const refused = await api.POST("/posts/create", { body: { title: "x" } });
  const fields: Record<string, string[]> | undefined = refused.error?.error.fields;
  const shown = await api.GET("/posts/show/{id}/{format}", { params: { path: { id: "3", format: "short" } } });
  const renamed = await api.PATCH("/posts/{id}", { params: { path: { id: "5" } }, body: { title: "renamed" } });
  const me = await api.GET("/account/me");
  return { page: listed.data?.page, title, refusedStatus: refused.response.status, fields, shown: shown.data?.title, renamed: renamed.data?.title, meStatus: me.response.status };
}
`;

const forbidden = `import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const api = createClient<paths>({ baseUrl: "http://127.0.0.1" });
// @ts-expect-error a path the app does not have
void api.GET("/nope");
// @ts-expect-error the title is a string
void api.POST("/posts/create", { body: { title: 42 } });
// @ts-expect-error create answers POST only
void api.GET("/posts/create");
// @ts-expect-error the id path parameter is required
void api.GET("/posts/show/{id}", { params: { path: {} } });
// @ts-expect-error the HTML page is not part of the API document
void api.GET("/pages");
`;

describe("fw-b OpenAPI document", () => {
  let host: Host;
  let url = "";
  let document: Doc;
  before(async () => {
    host = await definition.create({ config: { env: "test" } });
    url = `http://127.0.0.1:${((await host.listen(0, "127.0.0.1")).address() as AddressInfo).port}`;
    document = (await (await fetch(`${url}/openapi.json`)).json()) as Doc;
  });
  after(() => host.close());

  test("paths per pattern, verbs (update is PATCH), bodies, 401/403/422 and security schemes", () => {
    assert.equal(document.openapi, "3.1.0");
    assert.deepEqual(Object.keys(document.paths["/posts/show/{id}"]!), ["get"]);
    assert.ok(document.paths["/posts/show/{id}/{format}"], "the optional segment is a path of its own");
    assert.ok(document.paths["/posts/{id}"]!["patch"], "update() answers PATCH");
    assert.ok(document.paths["/posts/avatar"]!["post"]!.requestBody!.content["multipart/form-data"]);
    assert.ok(document.paths["/posts/create"]!["post"]!.responses["422"]);
    assert.deepEqual(document.paths["/posts"]!["get"]!.parameters!.map((p) => [p.name, p.in]), [["page", "query"]]);
    assert.ok(document.paths["/account/me"]!["get"]!.responses["401"]);
    assert.deepEqual(document.paths["/account/token"]!["get"]!.security, [{ bearerJwt: [] }]);
    assert.ok(document.paths["/account/settings"]!["post"]!.responses["403"], "CSRF-checked POST");
    assert.deepEqual(document.components.securitySchemes["csrfToken"], { type: "apiKey", in: "header", name: "X-CSRF-Token", description: document.components.securitySchemes["csrfToken"]!["description" as "type"] });
    assert.equal(document.components.securitySchemes["sessionCookie"]!.in, "cookie");
    assert.equal(document.paths["/pages"], undefined, "HTML routes are left out by default");
    const xml = document.paths["/feed/add"]!["post"]!.responses;
    assert.ok((xml["200"] as { content: Record<string, unknown> }).content["application/xml"], "an XML route answers application/xml");
    assert.ok((xml["422"] as { content: Record<string, unknown> }).content["application/xml"]);
  });

  test("the document validates, its generated client type-checks and calls the running app", async () => {
    const checked = await checkOpenApiClient<{ run(baseUrl: string): Promise<Record<string, unknown>> }>({ document, client, forbidden });
    try {
      assert.deepEqual(await checked.module.run(url), {
        page: 2,
        title: "hello",
        refusedStatus: 422,
        fields: { title: ["Too small: expected string to have >=3 characters"] },
        shown: "post short",
        renamed: "renamed",
        meStatus: 401,
      });
    } finally {
      checked.cleanup();
    }
  });

  test("the documentation page and Swagger UI's files are served from the package", async () => {
    const page = await fetch(`${url}/docs`);
    assert.match(await page.text(), /<div id="swagger-ui" data-url="\/openapi.json">/);
    const bundle = await fetch(`${url}/docs/swagger-ui-bundle.js`);
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get("content-type") ?? "", /javascript/);
  });

  test("production serves nothing unless turned on", async () => {
    const production = await definition.create({ config: { env: "production", secretKey: "a-production-secret-for-the-test-0123456789" } });
    try {
      const prodUrl = `http://127.0.0.1:${((await production.listen(0, "127.0.0.1")).address() as AddressInfo).port}`;
      assert.equal((await fetch(`${prodUrl}/openapi.json`)).status, 404);
    } finally {
      await production.close();
    }
  });

  test("fw-b :routes --openapi prints the document --include-html adds pages", () => {
    const run = spawnSync(process.execPath, [bin, ":routes", "--openapi", "--root", root], { encoding: "utf8", env: { ...process.env, FW_TS_LOADER: "" } });
    assert.equal(run.status, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as Doc;
    assert.deepEqual(Object.keys(printed.paths).sort(), Object.keys(document.paths).sort());
    const withHtml = spawnSync(process.execPath, [bin, ":routes", "--openapi", "--include-html", "--root", root], { encoding: "utf8", env: { ...process.env, FW_TS_LOADER: "" } });
    assert.ok((JSON.parse(withHtml.stdout) as Doc).paths["/pages"]);
  });

  test("an unknown key in the openapi block is refused at start-up", async () => {
    await assert.rejects(definition.create({ config: { openapi: { pathh: "/x" } } as never }), (error: Error & { code?: string }) => error.code === "E_CONFIG_UNKNOWN_KEY" && /pathh/.test(error.message));
  });
});
