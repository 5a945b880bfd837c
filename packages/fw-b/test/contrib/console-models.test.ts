// The console of an app with contrib: its model list has contrib's User (and ContactMessage), bound
// to the app's database, beside the app's own models.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { consoleContext } from "@fwkit/cli";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

let app: ContribApp;
before(async () => {
  app = await startContribApp();
});
after(() => app.close());

test("the console offers contrib's User and ContactMessage, bound to the app's database", async () => {
  const { models, variables } = consoleContext(app.host);
  assert.ok(models.includes("User"), models.join(", "));
  assert.ok(models.includes("ContactMessage"), models.join(", "));
  await createUser(app, { username: "console-ada", email: "console-ada@example.test" });
  const User = variables["User"] as { findBy(where: object): Promise<{ username: string } | undefined> };
  assert.equal((await User.findBy({ username: "console-ada" }))?.username, "console-ada");
});
