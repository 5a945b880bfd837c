/**
 * `@rateLimit({ countInvalid: false })`: a request refused for its input (the data battery's
 * validation error, thrown through the limit or answered below it) gives its count back, so a
 * per-address limit counts only what the view accepted; other limits on the view and the default
 * (`countInvalid` unset) still count every request. A bad `countInvalid` is refused when applied.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { Context } from "koa";
import { FrameworkError } from "routing-kernel";
import { csrfExempt, rateLimit } from "../src/index.js";
import { post, startApp, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

const emailOf = (ctx: Context) =>
  (ctx.request as { body?: Record<string, unknown> }).body?.["email"] as string | undefined;
/** What the data battery throws for refused input (matched by its code). */
const refused = () =>
  Object.assign(new Error("Check the fields."), { code: "E_VALIDATION", status: 422, expose: true, fields: {} });

@csrfExempt
class Forms extends View {
  @post
  @rateLimit({ max: 4, window: "1m" })
  @rateLimit({ max: 2, window: "1h", by: emailOf, countInvalid: false })
  async invite() {
    const body = (this.ctx.request as { body?: Record<string, string> }).body ?? {};
    if (body["name"] === "thrown") throw refused();
    if (body["name"] === "answered") {
      // As the data battery answers a refused form below the limit: back to the form, marked.
      this.ctx.state["inputRefused"] = true;
      this.ctx.status = 303;
      this.ctx.redirect("/form");
      return undefined;
    }
    return { ok: true };
  }

  @post
  @rateLimit({ max: 2, window: "1h", by: emailOf })
  async counted() {
    throw refused();
  }
}

const apps: TestApp[] = [];
after(async () => {
  for (const app of apps) await app.close();
});

test("countInvalid: false gives a refused request's count back on that limit only", async () => {
  const app = await startApp({ views: { Forms } });
  apps.push(app);
  const client = new HttpClient(app.url);
  const invite = (name: string) => client.post("/forms/invite", { form: { email: "ann@example.test", name } });
  assert.equal((await invite("thrown")).status, 422);
  assert.equal((await invite("answered")).status, 303);
  assert.equal((await invite("thrown")).status, 422);
  assert.equal((await invite("ok")).status, 200, "three refused requests did not use the per-address limit of 2");
  // The per-client limit (4) counted all four.
  assert.equal((await client.post("/forms/invite", { form: { email: "bob@example.test", name: "ok" } })).status, 429);

  const other = new HttpClient(app.url);
  const counted = () => other.post("/forms/counted", { form: { email: "cy@example.test" } });
  assert.equal((await counted()).status, 422);
  assert.equal((await counted()).status, 422);
  assert.equal((await counted()).status, 429, "by default a refused request counts");
});

test("a countInvalid that is not a boolean is refused when the decorator is applied", () => {
  assert.throws(
    () => rateLimit({ max: 1, window: "1m", countInvalid: "no" as unknown as boolean }),
    (error: unknown) =>
      error instanceof FrameworkError &&
      error.code === "E_RATE_LIMIT_INVALID" &&
      /"countInvalid" must be true or false/.test(error.message),
  );
});
