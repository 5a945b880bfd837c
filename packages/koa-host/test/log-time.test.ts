import assert from "node:assert/strict";
import { test } from "node:test";
import { isoTimeField, isoTimeFieldAt } from "../src/log-time.js";

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

test("every millisecond gets the string Date.prototype.toISOString gives, across seconds, days and years", () => {
  const moments = [
    Date.UTC(2026, 10, 27, 15, 58, 52, 998),
    Date.UTC(2026, 11, 31, 23, 59, 59, 999),
    Date.UTC(2027, 0, 1, 0, 0, 0, 0),
    0,
    -1,
    Date.UTC(10000, 0, 1, 0, 0, 0, 5),
  ];
  // A run of consecutive milliseconds over a second's boundary, then back in time (a clock set back).
  const start = Date.UTC(2026, 5, 30, 23, 59, 58, 990);
  for (let t = start; t < start + 2030; t += 7) moments.push(t);
  moments.push(start - 86_400_000, start + 1);
  for (const now of moments) assert.equal(isoTimeFieldAt(now), `,"time":"${new Date(now).toISOString()}"`, `at ${now}`);
});
