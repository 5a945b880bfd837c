import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClassOrMethodDecoratorLike, ConformanceSchemas } from "../adapter.js";
import type { ClientResponse } from "../client.js";
import type { SuiteContext } from "../suite.js";
import { adapterPart, expectStatus } from "../suite.js";

const TITLE = "declared schemas (docs/validation.md)";

/** One Standard Schema issue. */
interface Issue {
  readonly message: string;
  readonly path: readonly PropertyKey[];
}

/** A Standard Schema (v1) written by hand: the suite depends on no schema library, and neither may the rule. */
interface Schema<T> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): { readonly value: T } | { readonly issues: readonly Issue[] };
  };
}

/** A field rule: the parsed value, or why it is refused. */
type Field = (value: unknown) => { readonly value: unknown } | { readonly message: string };

/** A schema of an object whose fields each follow their rule; every refused field is one issue. */
function objectSchema<T>(fields: Record<string, Field>): Schema<T> {
  return {
    "~standard": {
      version: 1,
      vendor: "conformance",
      validate(input) {
        const record = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
        const value: Record<string, unknown> = {};
        const issues: Issue[] = [];
        for (const [name, rule] of Object.entries(fields)) {
          const result = rule(record[name]);
          if ("message" in result) issues.push({ message: result.message, path: [name] });
          else value[name] = result.value;
        }
        return issues.length > 0 ? { issues } : { value: value as T };
      },
    },
  };
}

const text =
  (min: number): Field =>
  (value) =>
    typeof value === "string" && value.length >= min ? { value } : { message: `At least ${min} characters` };
const page: Field = (value) => {
  if (value === undefined) return { value: 1 };
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? { value: number } : { message: "A whole number from 1" };
};
const tags: Field = (value) =>
  value === undefined ? { value: [] } : Array.isArray(value) ? { value } : { message: "A list" };
const email: Field = (value) =>
  typeof value === "string" && /^[^@\s]+@[^@\s]+$/.test(value) ? { value } : { message: "An email address" };

const Listing = objectSchema<{ page: number }>({ page });
const NewPost = objectSchema<{ title: string; tags: string[] }>({ title: text(3), tags });
const Signup = objectSchema<{ email: string }>({ email });

/** The base class's schema readers, shared by both frameworks' views. */
interface SchemaView {
  input<T>(schema: Schema<T>): T;
  validate<T>(schema: Schema<T>): Promise<T>;
}
const reader = (view: object): SchemaView => view as SchemaView;

/** The 422 JSON answer's refused fields, sorted. */
function refusedFields(response: ClientResponse): string[] {
  const body = response.json() as { error: { status: number; fields: Record<string, string[]> } };
  assert.equal(body.error.status, 422);
  return Object.keys(body.error.fields).sort();
}

const JSON_HEADERS = { "content-type": "application/json" };

/**
 * A route's declared query and body schemas (any Standard Schema) are checked before the method
 * runs: a refusal answers 422 with the messages of every declared part (JSON, or XML on an XML
 * route) and sends an HTML form back (303) to where it came from; the method reads the parsed
 * value with `input(schema)`; `validate(schema)` inside a method answers the same way; a declared
 * value that is not a Standard Schema stops the start naming the route.
 */
export function declaredSchemaCases(s: SuiteContext): void {
  const part = adapterPart(s, "schemas", TITLE);
  if (!part) return;
  const schemas: ConformanceSchemas = part;
  const { Base, decorators: d } = s.adapter;
  const query = (schema: Schema<unknown>) => schemas.query(schema as never);
  const body = (schema: Schema<unknown>) => schemas.body(schema as never);
  const xml = s.adapter.results?.xml;
  // The app keeps sessions (a refused form's messages travel in one); the suite sends no CSRF token.
  const exempt: ClassOrMethodDecoratorLike = s.adapter.security?.csrfExempt ?? ((value) => value);

  @d.json
  @exempt
  class Posts extends Base {
    @query(Listing) index() {
      const { page } = reader(this).input(Listing);
      return { page, next: page + 1 };
    }
    @d.post @query(Listing) @body(NewPost) create() {
      const post = reader(this).input(NewPost);
      return { title: post.title.toUpperCase(), tags: post.tags, page: reader(this).input(Listing).page };
    }
    @d.post async imperative() {
      return { title: (await reader(this).validate(NewPost)).title };
    }
    @d.post undeclared() {
      return reader(this).input(NewPost);
    }
  }
  @exempt
  class Forms extends Base {
    @d.post @body(Signup) signup() {
      return `welcome ${reader(this).input(Signup).email}`;
    }
  }
  const modules = () => {
    const exports: Record<string, unknown> = { Posts, Forms };
    if (xml) {
      @xml
      @exempt
      class Feed extends Base {
        @d.post @body(NewPost) add() {
          return { title: reader(this).input(NewPost).title };
        }
      }
      exports["Feed"] = Feed;
    }
    return [{ name: "conformance/schemas", exports }];
  };

  s.group(
    TITLE,
    modules,
    (t) => {
      const post = (c: Parameters<Parameters<typeof t>[1]>[0], path: string, payload: unknown) =>
        c.send("POST", path, { headers: JSON_HEADERS, body: JSON.stringify(payload) });

      t("a declared query reaches the method parsed (a number, its default when absent)", async (c) => {
        assert.deepEqual((await c.get(`${s.p("/posts")}?page=4`)).json(), { page: 4, next: 5 });
        assert.deepEqual((await c.get(s.p("/posts"))).json(), { page: 1, next: 2 });
      });

      t("a declared body and query reach the method parsed, defaults applied", async (c) => {
        const created = await post(c, `${s.p("/posts/create")}?page=2`, { title: "hello" });
        expectStatus(created, 200, "valid input");
        assert.deepEqual(created.json(), { title: "HELLO", tags: [], page: 2 });
      });

      t("refused input is answered 422 before the method runs, with the fields of every declared part", async (c) => {
        const refused = await post(c, `${s.p("/posts/create")}?page=0`, { title: "x" });
        expectStatus(refused, 422, "refused query and body");
        assert.equal(refused.type, "application/json");
        assert.deepEqual(refusedFields(refused), ["page", "title"]);
      });

      t("validate() inside the method answers a refusal 422 and returns the parsed value", async (c) => {
        const refused = await post(c, s.p("/posts/imperative"), { title: "x" });
        expectStatus(refused, 422, "refused by validate()");
        assert.deepEqual(refusedFields(refused), ["title"]);
        assert.deepEqual((await post(c, s.p("/posts/imperative"), { title: "fine" })).json(), { title: "fine" });
      });

      t("input() of a schema the route did not declare is a server error", async (c) => {
        expectStatus(await post(c, s.p("/posts/undeclared"), { title: "hello" }), 500, "undeclared schema");
      });

      t(
        "an HTML form refused by its declared body is sent back (303) to the form; a valid one reaches the method",
        async (c) => {
          const form = { "content-type": "application/x-www-form-urlencoded" };
          const refused = await c.send("POST", s.p("/forms/signup"), {
            headers: { ...form, host: "app.example", referer: `http://app.example${s.p("/forms")}` },
            body: "email=nope",
          });
          expectStatus(refused, 303, "refused form");
          assert.equal(refused.headers["location"], s.p("/forms"));
          const ok = await c.send("POST", s.p("/forms/signup"), { headers: form, body: "email=ann%40example.com" });
          expectStatus(ok, 200, "valid form");
          assert.equal(ok.text, "welcome ann@example.com");
        },
      );

      if (xml) {
        t("an XML route answers a refusal of its declared body as XML 422", async (c) => {
          const refused = await post(c, s.p("/feed/add"), { title: "x" });
          expectStatus(refused, 422, "refused on an XML route");
          assert.equal(refused.type, "application/xml");
          assert.match(refused.text, /<status>422<\/status>.*<title><item>/s);
        });
      } else {
        test("an XML route answers a refusal of its declared body as XML 422", {
          skip: `${s.adapter.name} declares no xml decorator in its results part`,
        }, () => {});
      }
    },
    (m) => schemas.start(m),
  );

  s.checks(`${TITLE}: start-up`, (t) => {
    t(
      "a declared value that is not a Standard Schema stops the start, naming the decorator and the route",
      async () => {
        class Broken extends Base {
          @d.post @body({ title: "string" } as unknown as Schema<unknown>) save() {}
        }
        await assert.rejects(
          s.adapter.build([{ name: "conformance/broken", exports: { Broken } }]),
          (error: Error & { code?: string }) => {
            assert.equal(error.code, "E_NOT_STANDARD_SCHEMA");
            assert.match(error.message, /@\S*body on Broken\.save/);
            return true;
          },
        );
      },
    );
  });
}
