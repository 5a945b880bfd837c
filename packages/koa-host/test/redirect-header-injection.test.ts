// A redirect target holding CR or LF (a header-injection attempt) answered 500 because
// Node refuses such a header; it is now percent-encoded, and other view headers with a line break
// answer 400.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { HTTPError, redirect, reply, type Host } from "../src/index.js";
import { startHost, TestView } from "./fixtures.js";

class Jump extends TestView {
  index() {
    return redirect(String(this.ctx.query["to"]));
  }
  viaReply() {
    return reply("moved", { status: 303, headers: { Location: String(this.ctx.query["to"]) } });
  }
  named() {
    return reply("file", {
      headers: { "Content-Disposition": `attachment; filename="${String(this.ctx.query["name"])}"` },
    });
  }
  refused() {
    throw HTTPError.Unauthorized("log in", { headers: { Location: String(this.ctx.query["to"]) } });
  }
}

describe("redirect targets with CR/LF", () => {
  let host: Host;
  let url = "";
  before(async () => ({ host, url } = await startHost({ Jump })));
  after(() => host.close());

  for (const path of ["/jump", "/jump/via-reply"]) {
    test(`${path}: CR/LF in the target is encoded, never a 500 nor an injected header`, async () => {
      const res = await fetch(`${url}${path}?to=${encodeURIComponent("/home\r\nSet-Cookie: evil=1")}`, {
        redirect: "manual",
      });
      assert.ok(res.status === 302 || res.status === 303, `status ${res.status}`);
      assert.equal(res.headers.get("location"), "/home%0D%0ASet-Cookie:%20evil=1");
      assert.equal(res.headers.get("set-cookie"), null);
    });
  }

  test("a non-ASCII redirect target is sent percent-encoded", async () => {
    const res = await fetch(`${url}/jump?to=${encodeURIComponent("/café")}`, { redirect: "manual" });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "/caf%C3%A9");
  });

  test("another view header with a line break from the request is a 400 naming the header", async () => {
    const res = await fetch(`${url}/jump/named?name=${encodeURIComponent("a\r\nX-Evil: 1")}`);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("x-evil"), null);
    assert.match(await res.text(), /Content-Disposition/);
  });

  test("an HTTP error's Location header is encoded too", async () => {
    const res = await fetch(`${url}/jump/refused?to=${encodeURIComponent("/login\nX-Evil: 1")}`, {
      redirect: "manual",
    });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("location"), "/login%0AX-Evil:%201");
  });
});
