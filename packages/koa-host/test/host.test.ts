import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { HTTPError, reply } from "../src/index.js";
import { json, post, route, startHost, TestView } from "./fixtures.js";

class Index extends TestView {
  index() {
    return "home";
  }
  hello_world() {
    return "<p>hi</p>";
  }
}
class Document extends TestView {
  get(id: string) {
    return `doc ${id}`;
  }
  page(n = "1") {
    return `page ${n}`;
  }
  @post create() {
    return reply({ ok: true }, { status: 201, headers: { Location: "/document/1" } });
  }
  update(id: string) {
    return `patched ${id}`;
  }
  secret() {
    throw HTTPError.Unauthorized();
  }
  boom() {
    throw new Error("kaput");
  }
  @json data() {
    return { a: 1 };
  }
  @json @route("/fail") failing() {
    throw HTTPError.Conflict("Already there");
  }
  echo() {
    return JSON.stringify((this.ctx.request as { body?: unknown }).body ?? null);
  }
  @post @route("/echo") echoPost() {
    return JSON.stringify((this.ctx.request as { body?: unknown }).body ?? null);
  }
}

describe("koa-host end to end", () => {
  let url = "";
  let close: () => Promise<void>;
  before(async () => {
    const started = await startHost({ Index, Document });
    url = started.url;
    close = () => started.host.close();
  });
  after(() => close());

  test("generated paths, text and html", async () => {
    assert.equal(await (await fetch(`${url}/`)).text(), "home");
    const res = await fetch(`${url}/hello-world`);
    assert.match(res.headers.get("content-type")!, /text\/html/);
    assert.equal(await res.text(), "<p>hi</p>");
    assert.equal(await (await fetch(`${url}/document/42`)).text(), "doc 42");
    assert.equal(await (await fetch(`${url}/document/a%20b`)).text(), "doc a b");
  });

  test("optional parameters", async () => {
    assert.equal(await (await fetch(`${url}/document/page`)).text(), "page 1");
    assert.equal(await (await fetch(`${url}/document/page/3`)).text(), "page 3");
  });

  test("status and headers from a reply", async () => {
    const res = await fetch(`${url}/document/create`, { method: "POST" });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("location"), "/document/1");
    assert.deepEqual(await res.json(), { ok: true });
  });

  test("405 with Allow, OPTIONS, HEAD", async () => {
    const res = await fetch(`${url}/document/create`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "POST, OPTIONS");
    const options = await fetch(`${url}/document/42`, { method: "OPTIONS" });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get("allow"), "GET, HEAD, PATCH, OPTIONS");
    const head = await fetch(`${url}/document/42`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), "");
  });

  test("308 to the canonical slash form keeps the query", async () => {
    const res = await fetch(`${url}/document/42/?x=1`, { redirect: "manual" });
    assert.equal(res.status, 308);
    assert.equal(res.headers.get("location"), "/document/42?x=1");
  });

  test("method override: UPDATE reaches update() as PATCH", async () => {
    const res = await fetch(`${url}/document/7`, { method: "POST", headers: { "X-HTTP-Method-Override": "UPDATE" } });
    assert.equal(await res.text(), "patched 7");
    const form = await fetch(`${url}/document/8`, { method: "POST", body: new URLSearchParams({ _method: "PATCH" }) });
    assert.equal(await form.text(), "patched 8");
    const bad = await fetch(`${url}/document/8`, { method: "POST", headers: { "X-HTTP-Method-Override": "TRACE" } });
    assert.equal(bad.status, 400);
  });

  test("HTTPError statuses, HTML and JSON bodies", async () => {
    const res = await fetch(`${url}/document/secret`);
    assert.equal(res.status, 401);
    assert.match(await res.text(), /401 Unauthorized/);
    const jsonRes = await fetch(`${url}/document/fail`);
    assert.equal(jsonRes.status, 409);
    assert.deepEqual(await jsonRes.json(), { error: { status: 409, message: "Already there" } });
    const accept = await fetch(`${url}/document/secret`, { headers: { Accept: "application/json" } });
    assert.deepEqual(await accept.json(), { error: { status: 401, message: "Unauthorized" } });
  });

  test("unknown path 404, exception 500 without stack outside development", async () => {
    const res = await fetch(`${url}/nope`);
    assert.equal(res.status, 404);
    const boom = await fetch(`${url}/document/boom`);
    assert.equal(boom.status, 500);
    const text = await boom.text();
    assert.doesNotMatch(text, /kaput/);
  });

  test("bad input: malformed JSON 400, oversized 413, undecodable URL 400", async () => {
    const bad = await fetch(`${url}/document/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /not valid JSON/);
    const big = await fetch(`${url}/document/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: "x".repeat(2_000_000) }),
    });
    assert.equal(big.status, 413);
    const ok = await fetch(`${url}/document/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    assert.equal(await ok.text(), '{"a":1}');
    const url400 = await fetch(`${url}/document/%E0%A4%A`);
    assert.equal(url400.status, 400);
  });

  test("static files with caching headers", async () => {
    const res = await fetch(`${url}/static/site.css`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("cache-control") ?? "", /max-age/);
    const traversal = await fetch(`${url}/static/..%2f..%2fpackage.json`);
    // A traversal is the documented 400 (E_STATIC_PATH_INVALID), not koa-send's 403.
    assert.equal(traversal.status, 400);
  });
});
