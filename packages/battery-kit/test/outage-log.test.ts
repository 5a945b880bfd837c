import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { test } from "node:test";
import { isOutageReported, markOutageReported, outageLog, watchConnection } from "../src/outage-log.js";

function recorder() {
  const lines: Array<{ level: string; message: string; details: Record<string, unknown> }> = [];
  const push = (level: string) => (details: object, message: string) =>
    lines.push({ level, message, details: details as Record<string, unknown> });
  return { lines, logger: { warn: push("warn"), info: push("info") } };
}

test("an outage is one line when it starts, one per period while it lasts with a count, one when it ends", () => {
  let clock = 0;
  const { lines, logger } = recorder();
  const log = outageLog({ logger, name: "the redis session store", repeatMs: 10_000, now: () => clock });
  for (let i = 0; i < 500; i++) {
    log.failed(new Error("connect ECONNREFUSED"));
    clock += 50; // 500 failing requests over 25 s
  }
  assert.equal(log.down, true);
  assert.deepEqual(
    lines.map((l) => l.level),
    ["warn", "warn", "warn"],
  );
  assert.match(lines[0]!.message, /the redis session store failed \(connect ECONNREFUSED\); it is down/);
  assert.match(lines[1]!.message, /still down after 10 s \(200 failures/);
  assert.match(lines[2]!.message, /still down after 20 s \(200 failures/);
  for (let i = 0; i < 100; i++) log.recovered();
  assert.equal(log.down, false);
  assert.equal(lines.length, 4);
  assert.equal(lines[3]!.level, "info");
  assert.match(lines[3]!.message, /is back after 25 s \(500 failures while down\)/);
});

test("a second outage is reported afresh", () => {
  let clock = 0;
  const { lines, logger } = recorder();
  const log = outageLog({ logger, name: "cache", now: () => clock });
  log.failed(new Error("a"));
  log.recovered();
  clock += 1000;
  log.failed(new Error("b"));
  log.failed(new Error("b"));
  assert.deepEqual(
    lines.map((l) => l.message.split(" (")[0]),
    ["cache failed", "cache is back after 0 s", "cache failed"],
  );
});

test("watchConnection reports a client's error and ready events", () => {
  const { lines, logger } = recorder();
  const client = new EventEmitter();
  const log = outageLog({ logger, name: "cache" });
  watchConnection(client, log);
  client.emit("error", new Error("ECONNREFUSED"));
  client.emit("error", new Error("ECONNREFUSED"));
  client.emit("ready");
  client.emit("ready");
  assert.equal(lines.length, 2);
});

test("an error marked as reported is told apart from others", () => {
  assert.equal(isOutageReported(markOutageReported(new Error("x"))), true);
  assert.equal(isOutageReported(new Error("x")), false);
  assert.equal(isOutageReported(undefined), false);
});

test("one failure is counted in the singular", () => {
  let clock = 0;
  const { lines, logger } = recorder();
  const log = outageLog({ logger, name: "cache", now: () => clock });
  log.failed(new Error("a"));
  clock += 2000;
  log.recovered();
  assert.match(lines.at(-1)!.message, /is back after 2 s \(1 failure while down\)/);
});
