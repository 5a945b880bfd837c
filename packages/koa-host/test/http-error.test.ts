// HTTPError's factories: called plainly or with `new` (apps write both), each makes an error with
// its status, the status text as the default message, and the options' headers and code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HTTPError } from "../src/index.js";

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
