// A model factory in a test of an fw-a app with the test client: rows made by the factory are
// what the app's views answer with, and seedFactories gives the same rows in every test.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { modelTimestamps } from "@fwkit/data";
import { seedFactories } from "fw-a";
import { testClient, type TestClient } from "fw-a/testing";
import { Notes } from "./factory-app/lib/factories.js";
import { Note } from "./factory-app/lib/models.js";

describe("factories with the fw-a test client", () => {
  let client: TestClient;
  before(async () => {
    client = await testClient(new URL("./factory-app", import.meta.url).pathname);
    await Note.knex.schema.createTable("notes", (table) => {
      table.increments("id");
      table.string("title").notNullable();
      table.boolean("done").notNullable();
      modelTimestamps(table);
    });
  });
  beforeEach(async () => {
    await Note.query().del();
    await seedFactories(3);
  });
  after(() => client.close());

  test("rows made by the factory are listed by the app", async () => {
    const made = await Notes.createMany(3);
    const answer = await client.get("/notes/");
    assert.equal(answer.status, 200);
    assert.deepEqual(
      (answer.json() as { titles: string[] }).titles,
      made.map((note) => note.title),
    );
    assert.match(made[2]!.title, / 3$/, "the sequence numbers the rows");
  });

  test("overrides and states reach the app; the seed makes the data repeatable", async () => {
    const done = await Notes.with({ done: true }).create({ title: "Ship it" });
    assert.deepEqual((await client.get(`/notes/show/${done.id}/`)).json(), { title: "Ship it", done: true });
    await seedFactories(3);
    const again = await Notes.make();
    await seedFactories(3);
    assert.deepEqual(await Notes.make(), again);
  });
});
