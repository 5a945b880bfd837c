/**
 * Session behaviours outside the shared store suite: cookie sessions that outgrow a cookie fail
 * loudly (instead of the browser silently dropping them), and `destroySession` ends a session.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { destroySession, getSession } from "../src/index.js";
import { sessionId } from "../src/plugin-api.js";
import { startApp, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

class Index extends View {
  big() {
    getSession(this.ctx).blob = "x".repeat(Number(this.ctx.query["size"]));
    return { ok: true };
  }

  /** Near the cookie's limit, then a refused form's flash data on top (the data battery's shape). */
  refused() {
    const session = getSession(this.ctx);
    session.blob = "x".repeat(2000);
    session.flash = {
      messages: [{ kind: "error", message: "Refused." }],
      errors: { a: ["bad"] },
      old: { a: "y".repeat(2000) },
    };
    return { ok: true };
  }

  flash() {
    return { flash: getSession(this.ctx).flash ?? null, size: String(getSession(this.ctx).blob ?? "").length };
  }

  read() {
    return { id: sessionId(this.ctx) ?? null, size: String(getSession(this.ctx).blob ?? "").length };
  }

  end() {
    destroySession(this.ctx);
    try {
      getSession(this.ctx, "later code");
      return { after: "still there" };
    } catch (error) {
      return { after: (error as Error).message };
    }
  }
}

describe("cookie sessions", () => {
  let app: TestApp;
  const errors: Array<Error & { code?: string }> = [];
  before(async () => {
    app = await startApp({ views: { Index } });
    app.koa.on("error", (error: Error) => errors.push(error));
  });
  after(() => app.close());

  test("have no server-side id", async () => {
    const client = new HttpClient(app.url);
    await client.get("/big?size=10");
    assert.deepEqual((await client.get("/read")).json(), { id: null, size: 10 });
  });

  test("a refused form's flash data that does not fit drops its old input, never answering 500", async () => {
    const client = new HttpClient(app.url);
    assert.equal((await client.get("/refused")).status, 200);
    assert.deepEqual((await client.get("/flash")).json(), {
      flash: { messages: [{ kind: "error", message: "Refused." }], errors: {}, old: {} },
      size: 2000,
    });
  });

  test("session data too large for a cookie is a coded 500, not silent loss", async () => {
    const client = new HttpClient(app.url);
    assert.equal((await client.get("/big?size=2000")).status, 200);
    const tooBig = await client.get("/big?size=5000");
    assert.equal(tooBig.status, 500);
    assert.equal(errors.at(-1)?.code, "E_SESSION_COOKIE_TOO_LARGE");
    assert.match(errors.at(-1)?.message ?? "", /sessionUrl/);
    assert.equal((await client.get("/read")).json().size, 2000, "the last session that fitted is kept");
  });

  test("destroySession ends the session and clears the cookie; later use names the cause", async () => {
    const client = new HttpClient(app.url);
    await client.get("/big?size=3");
    const end = await client.get("/end");
    assert.match(end.json<{ after: string }>().after, /destroySession\(\) ended it earlier/);
    assert.equal(client.cookies.has("session"), false);
    assert.equal((await client.get("/read")).json().size, 0);
  });
});
