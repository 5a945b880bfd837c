/**
 * The OpenAPI rule, written once and run by both frameworks' tests against their `api-app`
 * fixture (the same API in each framework's idiom): OpenAPI 3.1 from the route table, checked by
 * tools nobody here wrote. The served document validates with @readme/openapi-parser,
 * openapi-typescript makes its types, a client written with openapi-fetch type-checks with tsc
 * (and calls the document forbids do not), and that client then calls the running app on
 * 127.0.0.1; the framework's `routes --openapi` command prints the same document.
 */
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { checkOpenApiClient, openApiClientSources, type OpenApiTestDocument } from "../openapi-tools.js";

/** The part of a framework's host the cases use. */
export interface OpenApiHost {
  listen(port: number, host: string): Promise<{ address(): unknown }>;
  close(): Promise<void>;
}

/** What the framework's own tests get to add cases on the same running app. */
export interface OpenApiContext {
  /** The document the running app serves. */
  document(): OpenApiTestDocument;
  /** A path under the framework's slash policy (`/posts` -> `/posts/` on fw-a). */
  p(path: string): string;
  /** Runs the framework's routes command with these arguments after its own. */
  routes(args: readonly string[]): SpawnSyncReturns<string>;
}

/** The framework under test, as {@link openApiCases} needs it. */
export interface OpenApiSubject {
  /** The framework's name, in test titles. */
  readonly name: string;
  /** Creates the fixture app with this config over its own (its definition's `create`). */
  create(options: { config: Record<string, unknown> }): Promise<OpenApiHost>;
  /** True when generated paths end with `/`. */
  readonly trailingSlash: boolean;
  /** Node arguments that run the framework's routes command on the fixture (`[bin, "routes", "--root", root]`). */
  readonly routes: readonly string[];
  /** Redocly rules the framework's conventions break on purpose (fw-a's trailing slashes). */
  readonly lintOff?: readonly string[];
  /** Registers the framework's own cases on the same app. */
  own?(context: OpenApiContext): void;
}

/** Production with a random key: a key written out here would be refused as weak (E_WEAK_SECRET_KEY). */
const PRODUCTION = { env: "production", secretKey: randomBytes(32).toString("base64url") };

async function listen(host: OpenApiHost): Promise<string> {
  const server = await host.listen(0, "127.0.0.1");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Registers the OpenAPI tests of one framework (call at the top level of its test file). */
export function openApiCases(subject: OpenApiSubject): void {
  const p = (path: string) => (subject.trailingSlash ? `${path}/` : path);
  const { client, forbidden } = openApiClientSources(subject.trailingSlash ? "/" : "");
  const routes = (args: readonly string[]) =>
    spawnSync(process.execPath, [...subject.routes, ...args], {
      encoding: "utf8",
      env: { ...process.env, FW_TS_LOADER: "" },
    });

  describe(`${subject.name} OpenAPI document`, () => {
    let host: OpenApiHost;
    let url = "";
    let document: OpenApiTestDocument;
    before(async () => {
      host = await subject.create({ config: { env: "test" } });
      url = await listen(host);
      document = (await (await fetch(`${url}/openapi.json`)).json()) as OpenApiTestDocument;
    });
    after(() => host.close());

    test("paths per pattern, verbs (update is PATCH), bodies, 401/403/422 and security schemes", () => {
      const paths = document.paths;
      assert.equal(document.openapi, "3.1.0");
      assert.deepEqual(Object.keys(paths[p("/posts/show/{id}")]!), ["get"]);
      assert.ok(paths[p("/posts/show/{id}/{format}")], "the optional segment is a path of its own");
      assert.ok(paths[p("/posts/{id}")]!["patch"], "update() answers PATCH");
      assert.ok(paths[p("/posts/avatar")]!["post"]!.requestBody!.content["multipart/form-data"]);
      assert.ok(paths[p("/posts/create")]!["post"]!.responses["422"]);
      assert.deepEqual(
        paths[p("/posts")]!["get"]!.parameters!.map((parameter) => [parameter.name, parameter.in]),
        [["page", "query"]],
      );
      assert.ok(paths[p("/account/me")]!["get"]!.responses["401"]);
      assert.deepEqual(paths[p("/account/token")]!["get"]!.security, [{ bearerJwt: [] }]);
      assert.ok(paths[p("/account/settings")]!["post"]!.responses["403"], "CSRF-checked POST");
      const schemes = document.components.securitySchemes;
      assert.deepEqual(schemes["csrfToken"], {
        type: "apiKey",
        in: "header",
        name: "X-CSRF-Token",
        description: schemes["csrfToken"]!["description" as "type"],
      });
      assert.equal(schemes["sessionCookie"]!.in, "cookie");
      assert.equal(paths[p("/pages")], undefined, "HTML routes are left out by default");
    });

    test("the document validates, its generated client type-checks and calls the running app", async () => {
      const checked = await checkOpenApiClient<{ run(baseUrl: string): Promise<Record<string, unknown>> }>({
        document,
        client,
        forbidden,
        lintOff: subject.lintOff ?? [],
      });
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
      const production = await subject.create({ config: PRODUCTION });
      try {
        assert.equal((await fetch(`${await listen(production)}/openapi.json`)).status, 404);
      } finally {
        await production.close();
      }
    });

    test("the routes command with --openapi prints the served document; --include-html adds pages", () => {
      const run = routes(["--openapi"]);
      assert.equal(run.status, 0, run.stderr);
      const printed = JSON.parse(run.stdout) as OpenApiTestDocument;
      assert.deepEqual(Object.keys(printed.paths).sort(), Object.keys(document.paths).sort());
      const withHtml = routes(["--openapi", "--include-html"]);
      assert.ok((JSON.parse(withHtml.stdout) as OpenApiTestDocument).paths[p("/pages")]);
    });

    test("an unknown key in the openapi block is refused at start-up", async () => {
      await assert.rejects(
        subject.create({ config: { openapi: { pathh: "/x" } } }),
        (error: Error & { code?: string }) => error.code === "E_CONFIG_UNKNOWN_KEY" && /pathh/.test(error.message),
      );
    });

    subject.own?.({ document: () => document, p, routes });
  });
}
