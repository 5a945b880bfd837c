// OpenAPI 3.1 from the route table, checked by tools nobody here wrote: the served
// document validates with @readme/openapi-parser, openapi-typescript makes its types, a client
// written with openapi-fetch type-checks with tsc (and calls the document forbids do not), and
// that client then calls the running app on 127.0.0.1. `fw-a routes --openapi` prints the same.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkOpenApiClient, openApiClientSources, type OpenApiTestDocument } from "@fwkit/test-servers/openapi";
import type { Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";
import { app as definition } from "./api-app/app.js";

const root = fileURLToPath(new URL("./api-app", import.meta.url));
const bin = fileURLToPath(new URL("../bin/fw-a.js", import.meta.url));

// fw-a's URLs end with "/" (its convention: `/posts/` answers, `/posts` redirects there), so the
// document's paths do too; every other recommended Redocly rule applies.
const FW_A_LINT_OFF = ["no-path-trailing-slash"];
type Doc = OpenApiTestDocument;
const { client, forbidden } = openApiClientSources("/");

describe("fw-a OpenAPI document", () => {
  let host: Host;
  let url = "";
  let document: Doc;
  before(async () => {
    host = await definition.create({ config: { env: "test" } });
    url = (await listenForTest(host)).url;
    document = (await (await fetch(`${url}/openapi.json`)).json()) as Doc;
  });
  after(() => host.close());

  test("paths per pattern, verbs (update is PATCH), bodies, 401/403/422 and security schemes", () => {
    assert.equal(document.openapi, "3.1.0");
    assert.deepEqual(Object.keys(document.paths["/posts/show/{id}/"]!), ["get"]);
    assert.ok(document.paths["/posts/show/{id}/{format}/"], "the optional segment is a path of its own");
    assert.ok(document.paths["/posts/{id}/"]!["patch"], "update() answers PATCH");
    assert.ok(document.paths["/posts/avatar/"]!["post"]!.requestBody!.content["multipart/form-data"]);
    assert.ok(document.paths["/posts/create/"]!["post"]!.responses["422"]);
    assert.deepEqual(document.paths["/posts/"]!["get"]!.parameters!.map((p) => [p.name, p.in]), [["page", "query"]]);
    assert.ok(document.paths["/account/me/"]!["get"]!.responses["401"]);
    assert.deepEqual(document.paths["/account/token/"]!["get"]!.security, [{ bearerJwt: [] }]);
    assert.ok(document.paths["/account/settings/"]!["post"]!.responses["403"], "CSRF-checked POST");
    assert.deepEqual(document.components.securitySchemes["csrfToken"], { type: "apiKey", in: "header", name: "X-CSRF-Token", description: document.components.securitySchemes["csrfToken"]!["description" as "type"] });
    assert.equal(document.components.securitySchemes["sessionCookie"]!.in, "cookie");
    assert.equal(document.paths["/pages/"], undefined, "HTML routes are left out by default");
    assert.equal(document.paths["/posts/note/"]!["post"]!.requestBody!.content["application/json"] !== undefined, true, "documented without its schema");
  });

  test("the document validates, its generated client type-checks and calls the running app", async () => {
    const checked = await checkOpenApiClient<{ run(baseUrl: string): Promise<Record<string, unknown>> }>({ document, client, forbidden, lintOff: FW_A_LINT_OFF });
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
      const { url: prodUrl } = await listenForTest(production);
      assert.equal((await fetch(`${prodUrl}/openapi.json`)).status, 404);
    } finally {
      await production.close();
    }
  });

  test("fw-a routes --openapi prints the document and warns about the schema it cannot convert; --include-html adds pages", () => {
    const run = spawnSync(process.execPath, [bin, "routes", "--openapi", "--root", root], { encoding: "utf8", env: { ...process.env, FW_TS_LOADER: "" } });
    assert.equal(run.status, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as Doc;
    assert.deepEqual(Object.keys(printed.paths).sort(), Object.keys(document.paths).sort());
    assert.match(run.stderr, /warning: Posts\.note: its body schema is left out of the OpenAPI document/);
    const withHtml = spawnSync(process.execPath, [bin, "routes", "--openapi", "--include-html", "--root", root], { encoding: "utf8", env: { ...process.env, FW_TS_LOADER: "" } });
    assert.ok((JSON.parse(withHtml.stdout) as Doc).paths["/pages/"]);
  });

  test("an unknown key in the openapi block is refused at start-up", async () => {
    await assert.rejects(definition.create({ config: { openapi: { pathh: "/x" } } as never }), (error: Error & { code?: string }) => error.code === "E_CONFIG_UNKNOWN_KEY" && /pathh/.test(error.message));
  });
});
