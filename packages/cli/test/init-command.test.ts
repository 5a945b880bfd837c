import assert from "node:assert/strict";
import { test } from "node:test";
import { nextSteps } from "../src/init-command.js";

test("the Next line cds into an app made elsewhere and installs first when the app asks for registry versions", () => {
  assert.equal(
    nextSteps("/home/me/shop", "/home/me/shop", { registry: false }, "fw-a gen:serve"),
    "Next: npm run dev   (fw-a gen:serve; then open http://127.0.0.1:5000)",
  );
  assert.equal(
    nextSteps("/home/me/shop", "/home/me", { registry: true }, "fw-b :serve"),
    "Next: cd shop && npm install && npm run dev   (fw-b :serve; then open http://127.0.0.1:5000)",
  );
  assert.match(
    nextSteps("/home/me/my shop", "/home/me", { registry: false }, "x"),
    /^Next: cd "my shop" && npm run dev/,
  );
  assert.match(
    nextSteps("/srv/apps/shop", "/home/me", { registry: false }, "x"),
    /^Next: cd \/srv\/apps\/shop && npm run dev/,
  );
});
