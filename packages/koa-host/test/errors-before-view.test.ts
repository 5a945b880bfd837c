// Errors raised before the view (body, app-wide middleware such as a session store
// outage, 405, 404 under a JSON class) answer in the route's kind, as the view's own errors do.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { HTTPError, type Host } from "../src/index.js";
import type { HostPlugin } from "../src/plugin-api.js";
import { json, post, startHost, TestView } from "./fixtures.js";

@json
class Api extends TestView {
  @post create() {
    return { ok: true };
  }
  items(id: string) {
    return { id };
  }
}
class Pages extends TestView {
  @post save() {
    return "saved";
  }
}

/** Stands for a battery whose app-wide middleware fails before routing (a session store outage). */
const outage: HostPlugin = {
  name: "outage",
  phases: {
    request: () => [
      async (ctx, next) => {
        if (ctx.get("x-outage")) throw HTTPError.ServiceUnavailable("The session store cannot be reached.");
        await next();
      },
    ],
  },
};

describe("errors before the view use the route's response kind", () => {
  let host: Host;
  let url = "";
  before(
    async () =>
      ({ host, url } = await startHost(
        { Api, Pages },
        { plugins: [outage], config: { bodyLimits: { json: "1kb", form: "1kb", text: "1kb", fileSize: 1024 } } },
      )),
  );
  after(() => host.close());

  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, {
      ...init,
      headers: { accept: "text/html,*/*", ...(init.headers as Record<string, string>) },
    });
  const jsonError = async (res: Response, status: number) => {
    assert.equal(res.status, status);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    const body = (await res.json()) as { error: { status: number; message: string } };
    assert.equal(body.error.status, status);
    assert.ok(body.error.message.length > 0);
  };
  const postJson = (path: string, body: string) =>
    send(path, { method: "POST", headers: { "content-type": "application/json" }, body });

  test("malformed JSON to a JSON route: 400 in JSON", async () =>
    jsonError(await postJson("/api/create", "{bad"), 400));
  test("an oversized body to a JSON route: 413 in JSON", async () =>
    jsonError(await postJson("/api/create", JSON.stringify({ a: "x".repeat(4096) })), 413));
  test("a wrong verb on a JSON route: 405 in JSON, with Allow", async () => {
    const res = await send("/api/create", { method: "DELETE" });
    assert.equal(res.headers.get("allow"), "POST, OPTIONS");
    await jsonError(res, 405);
  });
  test("an unknown path under a JSON class: 404 in JSON", async () => jsonError(await send("/api/items/1/more"), 404));
  test("an app-wide middleware failure (store outage) on a JSON route: 503 in JSON", async () =>
    jsonError(await send("/api/items/1", { headers: { "x-outage": "1" } }), 503));

  test("the same errors on an HTML route stay HTML pages", async () => {
    const res = await send("/pages/save", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{bad",
    });
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    const missing = await send("/nothing/here");
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get("content-type") ?? "", /text\/html/);
  });

  test("a client that accepts only JSON gets JSON from an HTML route too", async () => {
    const res = await fetch(`${url}/pages/save`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: "{bad",
    });
    await jsonError(res, 400);
  });
});
