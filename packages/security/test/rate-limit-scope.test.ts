/**
 * What a limit counts: `@rateLimit` on a class is one counter for the whole class (its methods
 * share it), and `by: "email"` counts the body's email address trimmed and lower-cased, so
 * `TARGET@`, `Target@` and `" target@"` share one count.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { HttpClient } from "@fwkit/test-servers";
import { csrfExempt, rateLimit } from "../src/index.js";
import { post, startApp, View, type TestApp } from "./helpers/app.js";

@csrfExempt
@rateLimit({ max: 4, window: "1m" })
class Shared extends View {
  @post
  async one() {
    return { ok: 1 };
  }

  @post
  async two() {
    return { ok: 2 };
  }

  @post
  async three() {
    return { ok: 3 };
  }
}

@csrfExempt
class Mails extends View {
  @post
  @rateLimit({ max: 2, window: "15m", by: "email" })
  async reset() {
    return { ok: true };
  }
}

const apps: TestApp[] = [];
after(async () => {
  for (const app of apps) await app.close();
});

test("a class-level limit counts the class's methods together: max 4 on a class of 3 methods allows 4 in all", async () => {
  const app = await startApp({ views: { Shared } });
  apps.push(app);
  const client = new HttpClient(app.url);
  const statuses: number[] = [];
  for (let round = 0; round < 3; round++)
    for (const method of ["one", "two", "three"])
      statuses.push((await client.post(`/shared/${method}`, { form: {} })).status);
  assert.equal(statuses.filter((status) => status === 200).length, 4, JSON.stringify(statuses));
  assert.deepEqual(statuses.slice(4), Array(5).fill(429));
});

test('by: "email" counts one address however it is spelled (case, spaces); a request without one is not counted by it', async () => {
  const app = await startApp({ views: { Mails } });
  apps.push(app);
  const client = new HttpClient(app.url);
  const reset = (email?: string) => client.post("/mails/reset", { form: email === undefined ? {} : { email } });
  assert.equal((await reset("target@example.test")).status, 200);
  assert.equal((await reset(" TARGET@Example.test ")).status, 200);
  assert.equal((await reset("Target@example.test")).status, 429, "a third spelling of the same address");
  assert.equal((await reset("other@example.test")).status, 200);
  for (let i = 0; i < 3; i++) assert.equal((await reset()).status, 200, "no address: this limit does not count it");
});
