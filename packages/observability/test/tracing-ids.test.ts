// The tracer provider's ids: W3C's lengths and alphabet, unique across refills of the random pool,
// never all zeros (tracing.test.ts checks them on an app's exported spans).
import assert from "node:assert/strict";
import { randomFillSync } from "node:crypto";
import { test } from "node:test";
import { PooledIdGenerator } from "../src/tracing/ids.js";

test("trace ids are 32 and span ids 16 lower-case hex digits, none repeated over several refills", () => {
  const ids = new PooledIdGenerator();
  const traces = Array.from({ length: 1000 }, () => ids.generateTraceId());
  const spans = Array.from({ length: 1000 }, () => ids.generateSpanId());
  for (const id of traces) assert.match(id, /^[0-9a-f]{32}$/);
  for (const id of spans) assert.match(id, /^[0-9a-f]{16}$/);
  assert.equal(new Set(traces).size, traces.length);
  assert.equal(new Set(spans).size, spans.length);
});

test("an all-zero id (invalid in W3C trace context) is never handed out", () => {
  let refills = 0;
  // The first pool is all zeros: every id cut from it is skipped until the next, random, pool.
  const ids = new PooledIdGenerator((bytes) => (refills++ === 0 ? bytes.fill(0) : randomFillSync(bytes)));
  const trace = ids.generateTraceId();
  assert.notEqual(trace, "0".repeat(32));
  assert.match(trace, /^[0-9a-f]{32}$/);
  assert.equal(refills, 2);
  const zeroSpans = new PooledIdGenerator((bytes) => (refills++ === 2 ? bytes.fill(0) : randomFillSync(bytes)));
  assert.notEqual(zeroSpans.generateSpanId(), "0".repeat(16));
});
