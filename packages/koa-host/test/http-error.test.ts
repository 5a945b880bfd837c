// HTTPError's factories: called plainly or with `new` (apps write both), each makes an error with
// its status, the status text as the default message, and the options' headers and code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HTTPError } from "../src/index.js";
import { toHttpStatus } from "../src/http-error.js";

test("a factory works called plainly and with new", () => {
  const plain = HTTPError.Gone("This page left.");
  const constructed = new HTTPError.Gone("This page left.");
  for (const error of [plain, constructed]) {
    assert.ok(error instanceof HTTPError);
    assert.equal(error.status, 410);
    assert.equal(error.message, "This page left.");
  }
});

test("the default message is the status text; headers and code come from the options", () => {
  const error = HTTPError.TooManyRequests(undefined, { headers: { "Retry-After": "5" }, code: "E_SLOW_DOWN" });
  assert.equal(error.status, 429);
  assert.equal(error.message, "Too Many Requests");
  assert.deepEqual(error.headers, { "Retry-After": "5" });
  assert.equal(error.code, "E_SLOW_DOWN");
});

test("a 4xx error marked expose: false answers its status text: its message (a table name) stays in development", () => {
  const error = Object.assign(new Error('No posts row matches id "999999".'), { status: 404, expose: false });
  assert.deepEqual(toHttpStatus(error), { status: 404, message: "Not Found", exposed: false });
  const shown = Object.assign(new Error("No such post."), { status: 404 });
  assert.deepEqual(toHttpStatus(shown), { status: 404, message: "No such post.", exposed: true });
});
