// Declared schemas: @query / @body validate before the method with validate()'s answers
// (422 JSON or XML, 303 back for HTML forms), the method reads the parsed value typed by its
// schema through this.input(Schema), zod 4 and valibot alike; a declared value that is not a
// Standard Schema stops the app at start-up naming the route.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import * as v from "valibot";
import { z } from "zod";
import { FwB, request } from "../src/index.js";
import { body, csrfExempt, query, renderJson, renderXml, returns, summary } from "../src/decorators/index.js";
import { buildTestApp, startTestApp, type TestServer } from "../src/testing/index.js";

const config = { dbUrl: "sqlite::memory:" };
const NewPost = z.object({ title: z.string().min(3), tags: z.array(z.string()).default([]) });
const Listing = z.object({ page: z.coerce.number().int().min(1).default(1) });
const Comment = v.object({ text: v.pipe(v.string(), v.minLength(2)) });
const Signup = z.object({ email: z.email() });

@renderJson
@csrfExempt
class Posts extends FwB {
  @query(Listing)
  @summary("List posts")
  index() {
    const { page } = this.input(Listing);
    return { page, next: page + 1 };
  }

  @request.post
  @query(Listing)
  @body(NewPost)
  @returns(201, z.object({ title: z.string() }))
  create() {
    const post = this.input(NewPost);
    return { title: post.title.toUpperCase(), tags: post.tags, page: this.input(Listing).page };
  }

  @request.post
  @body(Comment)
  comment() {
    return { text: this.input(Comment).text };
  }
}

@renderXml
@csrfExempt
class Feed extends FwB {
  @request.post
  @body(NewPost)
  add() {
    return { title: this.input(NewPost).title };
  }
}

@csrfExempt
class Forms extends FwB {
  @request.post
  @body(Signup)
  signup() {
    return `welcome ${this.input(Signup).email}`;
  }
}

describe("fw-b declared schemas", () => {
  let app: TestServer;
  before(async () => {
    app = await startTestApp([{ name: "main", exports: { Posts, Feed, Forms } }], { config });
  });
  after(() => app.close());

  const postJson = (path: string, payload: unknown) =>
    fetch(`${app.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });

  test("a declared query reaches the method parsed (coerced number, default)", async () => {
    assert.deepEqual(await (await fetch(`${app.url}/posts?page=4`)).json(), { page: 4, next: 5 });
    assert.deepEqual(await (await fetch(`${app.url}/posts`)).json(), { page: 1, next: 2 });
  });

  test("a declared body reaches the method parsed; refusals of every part answered 422 together", async () => {
    assert.deepEqual(await (await postJson("/posts/create?page=2", { title: "hello" })).json(), { title: "HELLO", tags: [], page: 2 });
    const refused = await postJson("/posts/create?page=0", { title: "x" });
    assert.equal(refused.status, 422);
    const answer = (await refused.json()) as { error: { fields: Record<string, string[]> } };
    assert.deepEqual(Object.keys(answer.error.fields).sort(), ["page", "title"]);
  });

  test("a valibot schema works the same way", async () => {
    assert.deepEqual(await (await postJson("/posts/comment", { text: "nice" })).json(), { text: "nice" });
    assert.equal((await postJson("/posts/comment", { text: "x" })).status, 422);
  });

  test("an XML route answers a refusal as XML 422", async () => {
    const refused = await postJson("/feed/add", { title: "x" });
    assert.equal(refused.status, 422);
    assert.match(refused.headers.get("content-type") ?? "", /application\/xml/);
    assert.match(await refused.text(), /<status>422<\/status>.*<title><item>/s);
  });

  test("an HTML form refused by its declared body is sent back (303)", async () => {
    const refused = await fetch(`${app.url}/forms/signup`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", referer: `${app.url}/forms` },
      body: "email=nope",
      redirect: "manual",
    });
    assert.equal(refused.status, 303);
    assert.equal(refused.headers.get("location"), "/forms");
  });

  test("a declared value that is not a Standard Schema stops the app at start-up, naming the route", async () => {
    class Broken extends FwB {
      @body(z.object({}).shape as never)
      save() {}
    }
    await assert.rejects(
      buildTestApp([{ name: "main", exports: { Broken } }], { config }),
      (error: Error & { code?: string }) => error.code === "E_NOT_STANDARD_SCHEMA" && /@body on Broken\.save/.test(error.message),
    );
  });
});
