// Declared schemas: @request.query / @request.body / @request.files validate before the
// method with validate()'s answers (422 JSON, 303 back for HTML forms), the method reads the parsed
// value typed by its schema through this.input(Schema), zod 4 and valibot alike; a declared value
// that is not a Standard Schema stops the app at start-up naming the route.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as v from "valibot";
import { z } from "zod";
import { createApp, FwA, request, response, security, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";

const root = mkdtempSync(join(tmpdir(), "fw-a-schemas-"));
const config = { env: "test", logRequests: false, dbUrl: "sqlite::memory:" };

const NewPost = z.object({ title: z.string().min(3), tags: z.array(z.string()).default([]) });
const Listing = z.object({ page: z.coerce.number().int().min(1).default(1) });
const Comment = v.object({ text: v.pipe(v.string(), v.minLength(2)) });
const Signup = z.object({ email: z.email() });

@response.json
@security.csrfExempt
class Posts extends FwA {
  @request.query(Listing)
  index() {
    const { page } = this.input(Listing);
    // `page` is a number here (z.coerce): the type flows from the schema, no cast.
    return { page, next: page + 1 };
  }

  @request.post
  @request.query(Listing)
  @request.body(NewPost)
  @response.schema(201, z.object({ title: z.string() }))
  create() {
    const post = this.input(NewPost);
    return { title: post.title.toUpperCase(), tags: post.tags, page: this.input(Listing).page };
  }

  @request.post
  @request.body(Comment)
  comment() {
    return { text: this.input(Comment).text };
  }

  @request.post
  async imperative() {
    const data = await this.validate(NewPost);
    return { title: data.title };
  }

  @request.post
  undeclared() {
    return this.input(NewPost);
  }
}

@security.csrfExempt
class Forms extends FwA {
  @request.post
  @request.body(Signup)
  signup() {
    return `welcome ${this.input(Signup).email}`;
  }
}

describe("fw-a declared schemas", () => {
  let app: Host;
  let url = "";
  before(async () => {
    app = await createApp({ root, modules: [{ name: "main", exports: { Posts, Forms } }], config });
    url = (await listenForTest(app)).url;
  });
  after(() => app.close());

  const postJson = (path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  test("a declared query reaches the method parsed (coerced number, default)", async () => {
    assert.deepEqual(await (await fetch(`${url}/posts/?page=4`)).json(), { page: 4, next: 5 });
    assert.deepEqual(await (await fetch(`${url}/posts/`)).json(), { page: 1, next: 2 });
  });

  test("a declared body reaches the method parsed, defaults applied", async () => {
    const res = await postJson("/posts/create/?page=2", { title: "hello" });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { title: "HELLO", tags: [], page: 2 });
  });

  test("refused input is answered 422 before the method runs, messages of every declared part together", async () => {
    const res = await postJson("/posts/create/?page=0", { title: "x" });
    assert.equal(res.status, 422);
    const body = (await res.json()) as { error: { status: number; fields: Record<string, string[]> } };
    assert.equal(body.error.status, 422);
    assert.deepEqual(Object.keys(body.error.fields).sort(), ["page", "title"]);
  });

  test("a valibot schema works the same way", async () => {
    assert.deepEqual(await (await postJson("/posts/comment/", { text: "nice" })).json(), { text: "nice" });
    const refused = await postJson("/posts/comment/", { text: "x" });
    assert.equal(refused.status, 422);
    assert.deepEqual(Object.keys(((await refused.json()) as { error: { fields: object } }).error.fields), ["text"]);
  });

  test("validate() inside the method keeps working", async () => {
    assert.equal((await postJson("/posts/imperative/", { title: "x" })).status, 422);
    assert.deepEqual(await (await postJson("/posts/imperative/", { title: "fine" })).json(), { title: "fine" });
  });

  test("this.input of a schema the route did not declare is a server error naming the route", async () => {
    const res = await postJson("/posts/undeclared/", { title: "hello" });
    assert.equal(res.status, 500);
  });

  test("an HTML form refused by its declared body is sent back (303) to the form", async () => {
    const refused = await fetch(`${url}/forms/signup/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", referer: `${url}/forms/` },
      body: "email=nope",
      redirect: "manual",
    });
    assert.equal(refused.status, 303);
    assert.equal(refused.headers.get("location"), "/forms/");
    const ok = await fetch(`${url}/forms/signup/`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=ann%40example.com" });
    assert.equal(await ok.text(), "welcome ann@example.com");
  });

  test("a declared value that is not a Standard Schema stops the app at start-up, naming the route", async () => {
    class Broken extends FwA {
      @request.post
      @request.body({ title: "string" } as never)
      save() {}
    }
    await assert.rejects(
      createApp({ root, modules: [{ name: "main", exports: { Broken } }], config }),
      (error: Error & { code?: string }) => error.code === "E_NOT_STANDARD_SCHEMA" && /@request\.body on Broken\.save/.test(error.message),
    );
  });
});
