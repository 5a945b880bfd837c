import assert from "node:assert/strict";
import { test } from "node:test";
import { listenNote } from "../../src/production/listen-address.js";

test("the start banner says when the app listens on every interface, and how to keep it on this machine", () => {
  assert.match(listenNote("0.0.0.0"), /every network interface \(0\.0\.0\.0, the default\)/);
  assert.match(listenNote("0.0.0.0"), /--host 127\.0\.0\.1 or HOST=127\.0\.0\.1/);
  assert.match(listenNote("::"), /every network interface/);
  assert.equal(listenNote("127.0.0.1"), "listening on 127.0.0.1 only");
});
