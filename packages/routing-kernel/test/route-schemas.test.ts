import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { codeOf, json, request, tableOf, View } from "./helpers.js";
import { inputSchema, isStandardSchema, responseSchema, routeDoc } from "../src/route-schemas.js";

/** A small Standard Schema v1 (the interface zod 4 and valibot implement): strings only. */
function stringSchema(): StandardSchemaV1<unknown, string> {
  return {
    "~standard": {
      version: 1,
      vendor: "test",
      validate: (value) => (typeof value === "string" ? { value } : { issues: [{ message: "Expected a string" }] }),
    },
  };
}

const Title = stringSchema();
const Page = stringSchema();
const Created = stringSchema();
const Problem = stringSchema();

describe("declared schemas and docs in the route metadata", () => {
  @responseSchema("response.schema", 401, Problem)
  @routeDoc("tags", { tags: ["Posts"] })
  @json
  class Posts extends View {
    @inputSchema("request.query", "query", Page)
    @routeDoc("summary", { summary: "List posts" })
    index() {}

    @request.post
    @inputSchema("request.body", "body", Title)
    @responseSchema("response.schema", 201, Created)
    @routeDoc("description", { description: "Creates a post from its title." })
    create() {}

    show(id: string, format = "full") {
      return [id, format];
    }
  }

  test("the table's metadata carries verbs, path, optional parameters, kind, schemas and docs", () => {
    const table = tableOf({ Posts });
    const byId = new Map(table.metadata().map((m) => [m.id, m]));
    const index = byId.get("Posts.index")!;
    assert.equal(index.summary, "List posts");
    assert.equal(index.responseKind, "json");
    assert.equal(index.schemas.query, Page);
    assert.deepEqual(Object.keys(index.schemas.responses), ["401"]);
    assert.deepEqual(index.tags, ["Posts"]);

    const create = byId.get("Posts.create")!;
    assert.deepEqual(create.verbs, ["POST"]);
    assert.equal(create.schemas.body, Title);
    assert.equal(create.schemas.responses["201"], Created);
    assert.equal(create.schemas.responses["401"], Problem, "the class's response schema stays under the method's own");
    assert.equal(create.description, "Creates a post from its title.");
    assert.equal(create.summary, undefined);

    const show = byId.get("Posts.show")!;
    assert.equal(show.path, "/posts/show/:id/:format?");
    assert.deepEqual(
      show.parameters.map((p) => [p.name, p.optional]),
      [
        ["id", false],
        ["format", true],
      ],
    );
    assert.deepEqual(show.patterns, ["/posts/show/:id", "/posts/show/:id/:format"]);
  });

  test("a route without decorators has its class name as tag and html as kind", () => {
    class Home extends View {
      index() {}
    }
    const [meta] = tableOf({ Home }).metadata();
    assert.deepEqual(meta!.tags, ["Home"]);
    assert.equal(meta!.responseKind, "html");
    assert.equal(meta!.kindDeclared, false);
    assert.deepEqual(meta!.schemas, { responses: {} });
  });

  test("a value that is not a Standard Schema stops the build, naming the route and decorator", () => {
    class Broken extends View {
      @request.post
      @inputSchema("request.body", "body", { title: "string" })
      save() {}
    }
    const error = codeOf(() => tableOf({ Broken }));
    assert.equal(error.code, "E_NOT_STANDARD_SCHEMA");
    assert.match(error.message, /@request\.body on Broken\.save/);
    assert.match(error.message, /keys title/);
  });

  test("a response status outside 100-599 is refused when the decorator is made", () => {
    assert.equal(codeOf(() => responseSchema("returns", 99, Title)).code, "E_INVALID_RESPONSE_STATUS");
  });

  test("isStandardSchema tells schemas from look-alikes", () => {
    assert.equal(isStandardSchema(Title), true);
    assert.equal(isStandardSchema({ "~standard": { version: 1 } }), false);
    assert.equal(isStandardSchema(null), false);
  });
});
