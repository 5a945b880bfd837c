// The request log line an operator ships: the client's address as trustProxy believes it, the
// user agent, the response size beside the id, method, path, status, and what plugins add through
// `requestLogFields()` (the security battery: the logged-in user's id; the host reads no battery's state).
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { pino } from "pino";
import type { HostPlugin } from "../src/plugin-api.js";
import { defineSlot } from "../src/slot.js";
import { startHost, TestView } from "./fixtures.js";

// A stand-in for the security battery: it keeps the user in its own slot and names it in the log line.
const memberSlot = defineSlot<{ id: number; username: string }>("koa-host-test.member");
const members: HostPlugin = {
  name: "members",
  requestLogFields: () => (ctx) => {
    const member = memberSlot.get(ctx);
    return member ? { userId: member.id } : undefined;
  },
};

class Index extends TestView {
  index() {
    return "hello";
  }
  member() {
    memberSlot.set(this.ctx, { id: 7, username: "ada" });
    return "members only";
  }
}

test("a request line carries ip (trusted), userAgent, bytes and a plugin's userId when a user is logged in", async () => {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const { host, url } = await startHost(
    { Index },
    {
      logger: pino({ level: "info" }, stream),
      plugins: [members],
      config: { env: "test", logRequests: true, trustProxy: 1 },
    },
  );
  try {
    await (await fetch(`${url}/`, { headers: { "user-agent": "probe/1.0", "x-forwarded-for": "203.0.113.9" } })).text();
    await (await fetch(`${url}/member`, { headers: { "user-agent": "probe/1.0" } })).text();
    const [anonymous, member] = lines.filter((line) => typeof line["status"] === "number");
    assert.equal(anonymous?.["ip"], "203.0.113.9", JSON.stringify(lines));
    assert.equal(anonymous?.["userAgent"], "probe/1.0");
    assert.equal(anonymous?.["bytes"], 5);
    assert.equal("userId" in anonymous!, false, "no user, no userId");
    assert.equal(member?.["ip"], "127.0.0.1");
    assert.equal(member?.["userId"], 7);
    assert.equal(member?.["bytes"], "members only".length);
  } finally {
    await host.close();
  }
});
