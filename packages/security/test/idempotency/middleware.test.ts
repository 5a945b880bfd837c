/**
 * Idempotency keys on bare Koa: a request with an `Idempotency-Key` runs once and a repeat gets
 * the first answer (status, headers, body, `Idempotent-Replayed: true`); 409 while the first is
 * running; 422 for the key with another body or path; 400 for a malformed key; keys are scoped to
 * the client; a failed request frees its key; app-wide for unsafe methods by config; in Redis two
 * app processes share the keys; a store that is down refuses (503) rather than maybe run twice.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Redis } from "ioredis";
import { HttpClient, requireServer, serverUrls, startRedis } from "@fwkit/test-servers";
import { csrfExempt, idempotent } from "../../src/index.js";
import { post, startApp, View, type TestApp } from "../helpers/app.js";

let runs = 0;
let gate: Promise<void> = Promise.resolve();

@csrfExempt
class Orders extends View {
  @post
  @idempotent
  async create() {
    runs++;
    await gate;
    const body = (this.ctx.request as { body?: Record<string, unknown> }).body ?? {};
    this.ctx.status = 201;
    this.ctx.set("Location", `/orders/${runs}`);
    this.ctx.set("X-Order", String(runs));
    return { order: runs, item: body["item"] ?? null };
  }

  @post
  @idempotent()
  async fail() {
    runs++;
    if (runs % 2 === 1) throw new Error("the first attempt fails");
    return { ok: runs };
  }

  @post
  async plain() {
    runs++;
    return { ok: runs };
  }
}

describe("idempotency keys", () => {
  const apps: TestApp[] = [];
  const prefix = `idem-test-${process.pid}-${Date.now().toString(36)}:`;
  after(async () => {
    for (const app of apps) await app.close();
    if (process.env["FW_TEST_NO_SERVERS"] === "1") return;
    const redis = new Redis(serverUrls.redis);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });
  const start = async (config: Record<string, unknown> = {}) => {
    const app = await startApp({ views: { Orders }, config });
    apps.push(app);
    return app;
  };

  test("a repeat with the same key gets the first answer replayed; the view runs once", async () => {
    const app = await start();
    const client = new HttpClient(app.url);
    runs = 0;
    const first = await client.post("/orders/create", { json: { item: "tea" }, headers: { "idempotency-key": "k-1" } });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get("idempotent-replayed"), null);
    const again = await client.post("/orders/create", { json: { item: "tea" }, headers: { "idempotency-key": "k-1" } });
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get("location"), "/orders/1");
    assert.equal(again.headers.get("x-order"), "1");
    assert.match(String(again.headers.get("content-type")), /json/);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(runs, 1, "the view ran once");
    assert.ok(app.logLines.some((line) => line.startsWith("info idempotency: a request came again; its first answer")));
    // A body with its keys in another order is the same request; the form field carries a key too.
    const reordered = await client.post("/orders/create", {
      json: { item: "tea" },
      headers: { "idempotency-key": "k-1" },
    });
    assert.equal(reordered.headers.get("idempotent-replayed"), "true");
    const field = await client.post("/orders/create", { form: { item: "cake", _idempotency_key: "form-1" } });
    const fieldAgain = await client.post("/orders/create", { form: { item: "cake", _idempotency_key: "form-1" } });
    assert.equal(fieldAgain.text, field.text);
    assert.equal(fieldAgain.headers.get("idempotent-replayed"), "true");
    assert.equal(runs, 2);
    // Without a key, every request runs.
    await client.post("/orders/create", { json: { item: "tea" } });
    await client.post("/orders/create", { json: { item: "tea" } });
    assert.equal(runs, 4);
  });

  test("409 with Retry-After while the first request with the key is still running", async () => {
    const app = await start();
    runs = 0;
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    try {
      const client = new HttpClient(app.url);
      const headers = { "idempotency-key": "slow-1" };
      const first = client.post("/orders/create", { json: { item: "x" }, headers });
      while (runs === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await client.post("/orders/create", { json: { item: "x" }, headers });
      assert.equal(second.status, 409, second.text);
      assert.equal(second.headers.get("retry-after"), "1");
      assert.match(second.text, /has not answered yet/);
      assert.ok(
        app.logLines.some((line) => line.startsWith("warn idempotency: a request came again while its first attempt")),
        `the app logs the refused retry (the balancer may log no line for the first attempt):\n${app.logLines.join("\n")}`,
      );
      open();
      assert.equal((await first).status, 201);
      const third = await client.post("/orders/create", { json: { item: "x" }, headers });
      assert.equal(third.headers.get("idempotent-replayed"), "true");
      assert.equal(runs, 1);
    } finally {
      open();
      gate = Promise.resolve();
    }
  });

  test("the same key with another body or path is 422; a malformed key is 400", async () => {
    const app = await start();
    runs = 0;
    const client = new HttpClient(app.url);
    const headers = { "idempotency-key": "k-2" };
    assert.equal((await client.post("/orders/create", { json: { item: "a" }, headers })).status, 201);
    const otherBody = await client.post("/orders/create", { json: { item: "b" }, headers });
    assert.equal(otherBody.status, 422, otherBody.text);
    assert.match(otherBody.text, /already used for a different request/);
    const otherPath = await client.post("/orders/fail", { json: { item: "a" }, headers });
    assert.equal(otherPath.status, 422);
    for (const bad of ["x".repeat(256), "has space", "semi;colon", "a/b"]) {
      const refused = await client.post("/orders/create", { json: { item: "a" }, headers: { "idempotency-key": bad } });
      assert.equal(refused.status, 400, `${bad}: ${refused.text}`);
      assert.match(refused.text, /Idempotency-Key is not valid/);
    }
    for (const bad of ["", "a/b"]) {
      const badField = await client.post("/orders/create", { form: { item: "a", _idempotency_key: bad } });
      assert.equal(badField.status, 400, `field ${JSON.stringify(bad)}`);
    }
    assert.equal(
      (await client.post("/orders/create", { json: { item: "a", _idempotency_key: 7 } })).status,
      400,
      "a key that is not a string",
    );
    assert.equal(runs, 1, "no refused request ran");
  });

  test("a key is scoped to its client: another client with the same key runs its own request", async () => {
    const app = await start();
    runs = 0;
    const alice = new HttpClient(app.url, { headers: { authorization: "Bearer alice" } });
    const bob = new HttpClient(app.url, { headers: { authorization: "Bearer bob" } });
    const headers = { "idempotency-key": "shared" };
    const mine = await alice.post("/orders/create", { json: { item: "a" }, headers });
    const theirs = await bob.post("/orders/create", { json: { item: "a" }, headers });
    assert.equal(theirs.headers.get("idempotent-replayed"), null, "bob does not read alice's answer");
    assert.notEqual(theirs.text, mine.text);
    assert.equal(runs, 2);
  });

  test("a request that fails frees its key: the retry runs", async () => {
    const app = await start();
    runs = 0;
    const client = new HttpClient(app.url);
    const headers = { "idempotency-key": "retry-me" };
    assert.equal((await client.post("/orders/fail", { json: {}, headers })).status, 500);
    const retried = await client.post("/orders/fail", { json: {}, headers });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(runs, 2);
    assert.equal((await client.post("/orders/fail", { json: {}, headers })).headers.get("idempotent-replayed"), "true");
  });

  test("off by default; idempotency.unsafeMethods turns it on for every view route; the block is checked at start-up", async () => {
    runs = 0;
    const off = new HttpClient((await start()).url);
    const headers = { "idempotency-key": "p-1" };
    await off.post("/orders/plain", { json: {}, headers });
    await off.post("/orders/plain", { json: {}, headers });
    assert.equal(runs, 2, "a route without @idempotent ignores the key");
    const on = new HttpClient((await start({ idempotency: { unsafeMethods: true } })).url);
    await on.post("/orders/plain", { json: {}, headers });
    const again = await on.post("/orders/plain", { json: {}, headers });
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(runs, 3);
    // An app's config is checked by the host at start-up (E_CONFIG_UNKNOWN_KEY); the plugin's options here.
    await assert.rejects(
      async () => startApp({ views: { Orders }, security: { idempotency: { unsafe: true } } as never }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_UNKNOWN_OPTION");
        assert.match(error.message, /Did you mean "unsafeMethods"\?/);
        return true;
      },
    );
    await assert.rejects(start({ idempotency: { ttl: "1d" } }), { code: "E_SECURITY_CONFIG_INVALID" });
    await assert.rejects(start({ idempotency: { ttl: 0 } }), { code: "E_SECURITY_CONFIG_INVALID" });
    await assert.rejects(start({ idempotency: { url: "postgres://x" } }), { code: "E_SECURITY_CONFIG_INVALID" });
  });

  test("in Redis, two app processes share the keys; with Redis down a keyed request is 503, not run", async () => {
    const redisUrl = await requireServer("redis");
    const config = { idempotency: { url: `${redisUrl}?prefix=${prefix}` } };
    runs = 0;
    const one = new HttpClient((await start(config)).url);
    const two = new HttpClient((await start(config)).url);
    // The same client (same credentials) retrying on another process.
    const headers = { "idempotency-key": "across", authorization: "Bearer same" };
    const first = await one.post("/orders/create", { json: { item: "a" }, headers });
    const retry = await two.post("/orders/create", { json: { item: "a" }, headers });
    assert.equal(retry.headers.get("idempotent-replayed"), "true");
    assert.equal(retry.text, first.text);
    assert.equal(runs, 1);

    const own = await startRedis();
    try {
      const down = new HttpClient((await start({ idempotency: { url: own.url } })).url);
      await own.stop();
      const refused = await down.post("/orders/create", { json: { item: "a" }, headers: { "idempotency-key": "d" } });
      assert.equal(refused.status, 503, refused.text);
      assert.match(refused.text, /idempotency keys cannot be reached/);
      assert.equal(runs, 1, "not run without the store");
    } finally {
      await own.close();
    }
  });
});
