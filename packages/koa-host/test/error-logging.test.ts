import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { pino } from "pino";
import { HTTPError } from "../src/index.js";
import { startHost, TestView } from "./fixtures.js";

class Status extends TestView {
  busy() {
    throw HTTPError.ServiceUnavailable("Back soon", { headers: { "Retry-After": "60" } });
  }
  broken() {
    throw new Error("database password is hunter2");
  }
}

test("an unexpected exception is logged as an error with its stack; a chosen 503 as a warning", async () => {
  const lines: Array<{ level: number; msg: string; err?: { stack?: string } }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: "info" }, sink);
  const { host, url } = await startHost({ Status }, { logger });
  try {
    const busy = await fetch(`${url}/status/busy`);
    assert.equal(busy.status, 503);
    assert.equal(busy.headers.get("retry-after"), "60");
    const broken = await fetch(`${url}/status/broken`);
    assert.equal(broken.status, 500);
    assert.doesNotMatch(await broken.text(), /hunter2/, "the client never sees the message of an unexpected error");
  } finally {
    await host.close();
  }
  const warning = lines.find((l) => l.msg.includes("/status/busy"));
  const error = lines.find((l) => l.msg.includes("/status/broken"));
  assert.equal(warning?.level, 40);
  assert.equal(error?.level, 50);
  assert.match(error?.err?.stack ?? "", /hunter2/, "the log keeps the stack");
});
