// The shared test client against a small node:http server on 127.0.0.1: cookies kept and
// deleted, redirects answered as they are or followed with the cookies of each hop, form and JSON
// bodies, the CSRF token of a page, a jar shared with another base URL.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { csrfFrom, httpClient, parseSetCookie } from "../src/index.js";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => resolve(text));
  });
}

describe("httpClient", () => {
  let server: Server;
  let base = "";
  before(async () => {
    server = createServer(async (req, res) => {
      const body = await readBody(req);
      const echo = {
        method: req.method,
        cookie: req.headers.cookie ?? null,
        type: req.headers["content-type"] ?? null,
        proto: req.headers["x-forwarded-proto"] ?? null,
        body,
      };
      switch (req.url) {
        case "/set":
          res.setHeader("set-cookie", ["session=abc; Path=/; HttpOnly", "theme=dark; Path=/"]);
          break;
        case "/clear":
          res.setHeader("set-cookie", [
            "session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            "theme=x; Max-Age=0",
          ]);
          break;
        case "/hop":
          res.writeHead(302, { location: "/hop2", "set-cookie": "step=one; Path=/" });
          return res.end();
        case "/hop2":
          res.writeHead(303, { location: "/echo", "set-cookie": "step=two; Path=/" });
          return res.end();
        case "/missing":
          res.writeHead(404);
          return res.end("not here");
        case "/form":
          res.setHeader("content-type", "text/html");
          return res.end('<form><input type="hidden" name="_csrf_token" value="tok-123"></form>');
      }
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(echo));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("keeps the cookies an answer sets, sends them back, and drops the ones it deletes", async () => {
    const client = httpClient(base);
    const set = await client.send("/set");
    assert.deepEqual(
      set.setCookies.map((c) => [c.name, c.value, "httponly" in c.attributes]),
      [
        ["session", "abc", true],
        ["theme", "dark", false],
      ],
    );
    assert.equal((await client.json<{ cookie: string }>("/echo")).cookie, "session=abc; theme=dark");
    assert.equal(
      (await client.get("/echo", { noCookies: true })).json<{ cookie: null }>().cookie,
      null,
      "noCookies sends none",
    );
    assert.equal(
      (await client.send("/echo", { headers: { cookie: "own=1" } })).json<{ cookie: string }>().cookie,
      "own=1",
      "a request's own Cookie wins",
    );
    await client.send("/clear");
    assert.deepEqual([...client.cookies], []);
    assert.equal(client.setCookieLines.length, 4);
  });

  test("answers a redirect as it is by default; redirect: follow follows it, keeping each hop's cookies", async () => {
    const manual = httpClient(base);
    const first = await manual.fetch("/hop");
    assert.equal(first.status, 302);
    assert.equal(first.headers.get("location"), "/hop2");
    const following = httpClient(base, { redirect: "follow" });
    const end = await following.send("/hop", { method: "POST", body: "x=1" });
    assert.equal(end.status, 200);
    assert.deepEqual(end.json(), { method: "GET", cookie: "step=two", type: null, proto: null, body: "" });
  });

  test("sends forms and JSON; default headers go with every request unless it sets its own", async () => {
    const client = httpClient(base, { headers: { "x-forwarded-proto": "https" } });
    const form = await (await client.form("/echo", { a: "1", tags: ["x", "y"] })).json();
    assert.deepEqual(form, {
      method: "POST",
      cookie: null,
      type: "application/x-www-form-urlencoded",
      proto: "https",
      body: "a=1&tags=x&tags=y",
    });
    const json = await client.post("/echo", { json: { b: 2 }, headers: { "x-forwarded-proto": "http" } });
    assert.deepEqual(json.json(), {
      method: "POST",
      cookie: null,
      type: "application/json",
      proto: "http",
      body: '{"b":2}',
    });
    assert.equal((await client.submit("/echo", { c: "3" })).json<{ body: string }>().body, "c=3");
  });

  test("reads the CSRF token of a page; a page without one throws", async () => {
    const client = httpClient(base);
    assert.equal(await client.csrfToken("/form"), "tok-123");
    assert.equal(csrfFrom('<meta name="csrf-token" content="meta-1">'), "meta-1");
    assert.equal(csrfFrom('<input value="rev-2" name="_csrf_token">'), "rev-2");
    assert.throws(() => csrfFrom("<p>none</p>"), /no CSRF token/);
  });

  test("at() shares the jar with another base URL; json() throws on a non-200", async () => {
    const client = httpClient(base);
    const other = client.at(`${base}/`, { "x-forwarded-proto": "https" });
    await other.send("/set");
    assert.equal(client.cookies.get("session"), "abc");
    await assert.rejects(client.json("/missing"), /GET \/missing: 404 not here/);
    assert.deepEqual(parseSetCookie("a=b=c; Secure; SameSite=Lax").attributes, { secure: "", samesite: "Lax" });
  });
});
