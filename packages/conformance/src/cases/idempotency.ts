import assert from "node:assert/strict";
import { test } from "node:test";
import type { ViewModule } from "routing-kernel";
import type { ClassOrMethodDecoratorLike, ConformanceSecurity, ConformanceServer } from "../adapter.js";
import { send } from "../client.js";
import type { SuiteContext } from "../suite.js";

const TITLE = "idempotency keys (@idempotent)";

let runs = 0;
let gate: Promise<void> = Promise.resolve();

/**
 * The idempotency-key decorator both frameworks map onto the security battery's rule: an unsafe
 * request with an `Idempotency-Key` (header, or the `_idempotency_key` form field) runs once and a
 * repeat gets the first answer with `Idempotent-Replayed: true`; 409 while the first runs; 422 for
 * the key with another body; 400 for a malformed key; `idempotency.unsafeMethods` turns it on for
 * every view route; with Redis two app instances share the keys.
 */
export function idempotencyCases(s: SuiteContext): void {
  const security = s.adapter.security;
  if (!security?.idempotent) {
    const why = security
      ? "declares no idempotent decorator in its security part"
      : "declares no security part in its adapter";
    test(`${TITLE}: not run`, { skip: `${s.adapter.name} ${why}` }, () => {});
    return;
  }
  const part: ConformanceSecurity = security;
  const idempotent = security.idempotent as ClassOrMethodDecoratorLike;
  const csrfExempt = security.csrfExempt;
  const { Base, decorators: d } = s.adapter;

  @csrfExempt
  class Orders extends Base {
    @d.post @d.json @idempotent async create() {
      runs++;
      await gate;
      return { order: runs };
    }
    @d.post @idempotent page() {
      runs++;
      return `<p>order ${runs}</p>`;
    }
    @d.post @d.json plain() {
      runs++;
      return { order: runs };
    }
  }
  const modules = (): ViewModule[] => [{ name: "conformance/idempotency", exports: { Orders } }];
  const json = (body: unknown, key?: string) => ({
    headers: { "content-type": "application/json", ...(key === undefined ? {} : { "idempotency-key": key }) },
    body: JSON.stringify(body),
  });

  s.group(
    TITLE,
    modules,
    (t) => {
      t("a repeat with the same key gets the first answer replayed; the view runs once", async (c) => {
        runs = 0;
        const first = await c.send("POST", s.p("/orders/create"), json({ item: "tea" }, "conf-1"));
        assert.equal(first.status, 200, first.text);
        const again = await c.send("POST", s.p("/orders/create"), json({ item: "tea" }, "conf-1"));
        assert.equal(again.status, 200);
        assert.equal(again.text, first.text);
        assert.equal(again.type, "application/json");
        assert.equal(again.headers["idempotent-replayed"], "true");
        const form = {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "item=cake&_idempotency_key=conf-form",
        };
        const page = await c.send("POST", s.p("/orders/page"), form);
        const pageAgain = await c.send("POST", s.p("/orders/page"), form);
        assert.equal(pageAgain.status, 200);
        assert.equal(pageAgain.text, page.text);
        assert.equal(pageAgain.type, "text/html");
        assert.equal(pageAgain.headers["idempotent-replayed"], "true");
        assert.equal(runs, 2);
      });
      t("409 with Retry-After while the first request with the key is still running", async (c) => {
        runs = 0;
        let open!: () => void;
        gate = new Promise((resolve) => {
          open = resolve;
        });
        try {
          const first = c.send("POST", s.p("/orders/create"), json({}, "conf-slow"));
          while (runs === 0) await new Promise((resolve) => setTimeout(resolve, 5));
          const second = await c.send("POST", s.p("/orders/create"), json({}, "conf-slow"));
          assert.equal(second.status, 409, second.text);
          assert.equal(second.headers["retry-after"], "1");
          assert.match(second.text, /has not answered yet/);
          open();
          assert.equal((await first).status, 200);
          assert.equal(runs, 1);
        } finally {
          open();
          gate = Promise.resolve();
        }
      });
      t("the key with another body is 422; a malformed key is 400, as JSON and as the error page", async (c) => {
        runs = 0;
        assert.equal((await c.send("POST", s.p("/orders/create"), json({ item: "a" }, "conf-2"))).status, 200);
        const other = await c.send("POST", s.p("/orders/create"), json({ item: "b" }, "conf-2"));
        assert.equal(other.status, 422, other.text);
        assert.match(other.text, /already used for a different request/);
        const long = await c.send("POST", s.p("/orders/create"), json({}, "k".repeat(256)));
        assert.equal(long.status, 400, long.text);
        assert.match(long.text, /Idempotency-Key is not valid/);
        const html = await c.send("POST", s.p("/orders/page"), {
          headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
          body: "_idempotency_key=bad%20key",
        });
        assert.equal(html.status, 400, html.text);
        assert.equal(html.type, "text/html");
        assert.match(html.text, /Idempotency-Key is not valid/);
        assert.equal(runs, 1, "refused requests do not run");
      });
      t("a route without the decorator ignores the key", async (c) => {
        runs = 0;
        await c.send("POST", s.p("/orders/plain"), json({}, "conf-3"));
        await c.send("POST", s.p("/orders/plain"), json({}, "conf-3"));
        assert.equal(runs, 2);
      });
    },
    (served) => part.start(served),
  );

  test(`${TITLE}: idempotency.unsafeMethods turns keys on for every view route`, async () => {
    const server = await part.start(modules(), { config: { idempotency: { unsafeMethods: true } } });
    try {
      runs = 0;
      const request = json({}, "conf-all");
      await send(server.url, "POST", s.p("/orders/plain"), request);
      const again = await send(server.url, "POST", s.p("/orders/plain"), request);
      assert.equal(again.headers["idempotent-replayed"], "true");
      assert.equal(runs, 1);
    } finally {
      await server.close();
    }
  });

  if (!part.sessionStore) {
    test(`${TITLE}, shared in Redis: not run`, {
      skip: `${s.adapter.name} declares no session store (sessionStore) in its security part`,
    }, () => {});
    return;
  }
  const store = part.sessionStore;
  test(`${TITLE}: with Redis configured, two app instances share the keys`, async () => {
    const prefix = `conformance-idem-${s.adapter.name}-${process.pid}-${Date.now().toString(36)}:`;
    const config = { idempotency: { url: `${await store()}?prefix=${encodeURIComponent(prefix)}`, ttl: 60 } };
    const servers: ConformanceServer[] = [];
    try {
      servers.push(await part.start(modules(), { config }), await part.start(modules(), { config }));
      const [first, second] = servers as [ConformanceServer, ConformanceServer];
      runs = 0;
      const answer = await send(first.url, "POST", s.p("/orders/create"), json({ n: 1 }, "conf-shared"));
      const retry = await send(second.url, "POST", s.p("/orders/create"), json({ n: 1 }, "conf-shared"));
      assert.equal(retry.headers["idempotent-replayed"], "true", "the second instance found the first one's key");
      assert.equal(retry.text, answer.text);
      assert.equal(runs, 1);
    } finally {
      for (const server of servers) await server.close();
    }
  });
}
