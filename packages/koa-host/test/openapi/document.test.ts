import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { z } from "zod";
import {
  buildRouteTable,
  defineConventions,
  inputSchema,
  responseKindTag,
  responseSchema,
  restrictVerbs,
  routeDoc,
} from "routing-kernel";
import { openApiDocument } from "../../src/openapi/document.js";
import type { OpenApiContribution } from "../../src/openapi/types.js";

class View {
  ctx: unknown;
}
const json = responseKindTag("json", "json");
const post = restrictVerbs("post", ["POST"]);
const Title = z.object({ title: z.string().min(3) });
const Rename = v.object({ title: v.pipe(v.string(), v.minLength(3)) });
const Opaque = { "~standard": { version: 1 as const, vendor: "opaque", validate: (value: unknown) => ({ value }) } };
const Dated = z.object({ at: z.instanceof(Date) });

@json
class Posts extends View {
  @routeDoc("summary", { summary: "One post" })
  show(id: string, format = "full") {
    return [id, format];
  }
  @post
  @inputSchema("body", "body", Title)
  @responseSchema("returns", 201, Title)
  create() {}
  @post
  @inputSchema("body", "body", Rename)
  rename() {}
  @post
  @inputSchema("body", "body", Opaque)
  opaque() {}
  @responseSchema("returns", 200, Dated)
  dated() {}
  @post
  @inputSchema("files", "files", z.object({ avatar: z.any() }))
  @inputSchema("body", "body", z.object({ caption: z.string() }))
  upload() {}
}
class Pages extends View {
  index() {}
}

const table = buildRouteTable({
  conventions: defineConventions({ baseClass: View, trailingSlash: false, reservedNames: ["ctx"] }),
  modules: [{ name: "main", exports: { Posts, Pages } }],
});
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: unknown;
};
type Paths = Record<string, Record<string, Operation>>;

describe("openApiDocument", () => {
  test("an optional segment gives one path per form, with unique operation ids and a note", async () => {
    const { document } = await openApiDocument([{ routes: table.routes, prefix: "", contributions: [] }]);
    const paths = document["paths"] as Paths;
    assert.equal(paths["/posts/show/{id}"]!["get"]!.operationId, "Posts.show");
    assert.equal(paths["/posts/show/{id}/{format}"]!["get"]!.operationId, "Posts.show.2");
    assert.equal(paths["/posts/show/{id}"]!["get"]!.summary, "One post");
    assert.match(paths["/posts/show/{id}"]!["get"]!.description!, /Optional segments \(`format`\)/);
  });

  test("bodies from zod and valibot, 422 for declared input, declared answers by status", async () => {
    const { document } = await openApiDocument([{ routes: table.routes, prefix: "", contributions: [] }]);
    const paths = document["paths"] as Paths;
    const create = paths["/posts/create"]!["post"]!;
    assert.deepEqual(Object.keys(create.requestBody!.content), [
      "application/json",
      "application/x-www-form-urlencoded",
    ]);
    assert.deepEqual(create.requestBody!.content["application/json"]!.schema!["required"], ["title"]);
    assert.deepEqual(Object.keys(create.responses).sort(), ["201", "422"]);
    const rename = paths["/posts/rename"]!["post"]!.requestBody!.content["application/json"]!.schema!;
    assert.deepEqual(rename["properties"], { title: { type: "string", minLength: 3 } });
    const upload = paths["/posts/upload"]!["post"]!.requestBody!.content["multipart/form-data"]!.schema!;
    assert.deepEqual(Object.keys(upload["properties"] as object).sort(), ["avatar", "caption"]);
  });

  test("a schema without converter, or one its converter refuses, is left out with a warning naming the route", async () => {
    const { document, warnings } = await openApiDocument([{ routes: table.routes, prefix: "", contributions: [] }]);
    const paths = document["paths"] as Paths;
    assert.ok(paths["/posts/opaque"]!["post"]!.requestBody, "the route is still documented");
    assert.deepEqual(paths["/posts/dated"]!["get"]!.responses["200"]!.content!["application/json"], {});
    assert.equal(warnings.length, 2);
    assert.match(
      warnings[0]!,
      /^Posts\.opaque: its body schema is left out .*opaque schema has no JSON Schema converter/,
    );
    assert.match(warnings[1]!, /^Posts\.dated: its 200 response schema is left out/);
  });

  test("HTML routes only with includeHtml; a mount prefix; plugins' notes and schemes", async () => {
    const guard: OpenApiContribution = {
      securitySchemes: { bearerJwt: { type: "http", scheme: "bearer" } },
      route: (route) =>
        route.methodName === "create"
          ? { responses: { "401": "Token required" }, security: [{ bearerJwt: [] }] }
          : undefined,
    };
    const { document } = await openApiDocument([{ routes: table.routes, prefix: "/api", contributions: [guard] }], {
      includeHtml: true,
      title: "T",
    });
    const paths = document["paths"] as Paths;
    assert.ok(paths["/api/pages"]!["get"]!.responses["200"]!.content!["text/html"]);
    assert.deepEqual(paths["/api/posts/create"]!["post"]!.security, [{ bearerJwt: [] }]);
    assert.ok(paths["/api/posts/create"]!["post"]!.responses["401"]);
    assert.deepEqual((document["components"] as { securitySchemes: object }).securitySchemes, {
      bearerJwt: { type: "http", scheme: "bearer" },
    });
    const plain = await openApiDocument([{ routes: table.routes, prefix: "", contributions: [] }]);
    assert.equal((plain.document["paths"] as Paths)["/pages"], undefined);
  });
});

describe("openApiDocument: servers, security and components a linter accepts", () => {
  const guard: OpenApiContribution = {
    securitySchemes: {
      bearerJwt: { type: "http", scheme: "bearer" },
      sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
    },
    route: (route) =>
      route.methodName === "create"
        ? { responses: { "401": "Token required" }, security: [{ bearerJwt: [] }] }
        : undefined,
  };

  test("servers: strings become { url }, objects are kept, the default is the serving origin", async () => {
    const given = await openApiDocument([{ routes: table.routes, prefix: "", contributions: [] }], {
      servers: ["https://api.example.com", { url: "/v2", description: "Here" }],
    });
    assert.deepEqual(given.document["servers"], [
      { url: "https://api.example.com" },
      { url: "/v2", description: "Here" },
    ]);
    const plain = await openApiDocument([{ routes: table.routes, prefix: "", contributions: [] }]);
    assert.deepEqual(plain.document["servers"], [{ url: "/" }]);
  });

  test("servers of the wrong shape are E_OPENAPI_OPTION naming the entry, never a spread string", async () => {
    const refused = async (servers: unknown, pattern: RegExp) =>
      assert.rejects(
        openApiDocument([{ routes: table.routes, prefix: "", contributions: [] }], { servers } as never),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "E_OPENAPI_OPTION");
          assert.match(error.message, pattern);
          return true;
        },
      );
    await refused("http://api.example.com", /servers .*expected a list/);
    await refused([42], /servers\[0\] .*expected a URL string or \{ url, description \}/);
    await refused(
      [{ url: "https://x.example", descripton: "typo" }],
      /servers\[0\]\.descripton .*unknown key; known: url, description/,
    );
    await refused([{ description: "no url" }], /servers\[0\]\.url/);
    await refused(["javascript:alert(1)"], /servers\[0\] .*http\(s\) URL/);
    await refused(["//evil.example"], /servers\[0\]/);
  });

  test("only the security schemes an operation uses are listed; a public operation says security: []", async () => {
    const { document } = await openApiDocument([{ routes: table.routes, prefix: "", contributions: [guard] }]);
    const paths = document["paths"] as Paths;
    assert.deepEqual(Object.keys((document["components"] as { securitySchemes: object }).securitySchemes), [
      "bearerJwt",
    ]);
    assert.deepEqual(paths["/posts/create"]!["post"]!.security, [{ bearerJwt: [] }]);
    assert.deepEqual(paths["/posts/rename"]!["post"]!.security, []);
    const none = await openApiDocument([
      { routes: table.routes, prefix: "", contributions: [{ securitySchemes: guard.securitySchemes! }] },
    ]);
    assert.equal(
      (none.document["components"] as { securitySchemes?: object }).securitySchemes,
      undefined,
      "no operation needs one",
    );
  });
});
