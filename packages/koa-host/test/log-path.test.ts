// A request's log line never holds a credential from its path: the values of secret route
// parameters (a reset or verification token, an API key) are written as the parameter's name.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Context } from "koa";
import { loggedPath } from "../src/log-path.js";

const ctx = (path: string, params?: Record<string, string>) =>
  ({ path, ...(params ? { params } : {}) }) as unknown as Context;

test("secret route parameters are written as their names; other parameters and paths stay", () => {
  const token = "ObiEoWXvZf3NBOU5ziGjacQG95YPw8XadKJum_Bd_KU";
  assert.equal(loggedPath(ctx(`/reset-password/${token}`, { token })), "/reset-password/:token");
  assert.equal(loggedPath(ctx(`/verify-email/${token}/`, { token })), "/verify-email/:token/");
  assert.equal(loggedPath(ctx("/keys/a%20b", { apiKey: "a b" })), "/keys/:apiKey");
  assert.equal(loggedPath(ctx("/invite/s3cr3t/accept", { inviteSecret: "s3cr3t" })), "/invite/:inviteSecret/accept");
  assert.equal(loggedPath(ctx("/notes/42", { id: "42" })), "/notes/42");
  assert.equal(loggedPath(ctx("/static/app.css")), "/static/app.css");
});
