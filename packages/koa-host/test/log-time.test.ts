import assert from "node:assert/strict";
import { test } from "node:test";
import { isoTimeField } from "../src/log-time.js";

test("the time field of a JSON log line is ISO 8601 in UTC, as pino's isoTime writes it", () => {
  const field = isoTimeField();
  assert.match(field, /^,"time":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"$/);
  const { time } = JSON.parse(`{${field.slice(1)}}`) as { time: string };
  assert.equal(new Date(time).toISOString(), time);
});

test("the field follows the clock: a later millisecond gives its own time", () => {
  const first = isoTimeField();
  const start = Date.now();
  while (Date.now() === start) {
    // Wait for the next millisecond (no duration is asserted).
  }
  const later = isoTimeField();
  assert.notEqual(later, first);
  assert.ok(later > first);
});
