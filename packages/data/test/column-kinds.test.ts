// Models return the JavaScript types a table declares, on every dialect: SQLite stores booleans as
// 0/1 and JSON as text, MariaDB booleans as TINYINT(1) and JSON as LONGTEXT.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { connect, type Database, defineModel, modelTimestamps, type BaseRow } from "../src/index.js";

interface TaskRow extends BaseRow {
  id: number;
  title: string;
  done: boolean;
  urgent: boolean | null;
  meta: { tags: string[]; level: number } | null;
  steps: string[] | null;
}

function suite(name: string, open: () => Promise<Database>, options: { skip?: string | false } = {}): void {
  const table = `data_kinds_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const Task = defineModel<TaskRow>(table);
  let db: Database | undefined;
  describe(`column types on ${name}`, options, () => {
    before(async () => {
      db = await open();
      await db.knex.schema.createTable(table, (t) => {
        t.increments("id");
        t.string("title", 100).notNullable();
        t.boolean("done").notNullable().defaultTo(false);
        t.boolean("urgent").nullable();
        t.json("meta").nullable();
        t.json("steps").nullable();
        modelTimestamps(t);
      });
      Task.bind(db.knex);
    });
    after(async () => {
      if (!db) return;
      await db.knex.schema.dropTableIfExists(table);
      await db.close();
    });

    test("create returns booleans as booleans and JSON as values", async () => {
      const task = await Task.create({
        title: "a",
        done: false,
        meta: { tags: ["x"], level: 2 },
        steps: ["one", "two"],
      });
      assert.equal(task.done, false);
      assert.equal(task.urgent, null);
      assert.deepEqual(task.meta, { tags: ["x"], level: 2 });
      assert.deepEqual(task.steps, ["one", "two"]);
      // `done` left to the column default.
      const defaulted = await Task.create({ title: "b", urgent: true } as Parameters<typeof Task.create>[0]);
      assert.equal(defaulted.done, false);
      assert.equal(defaulted.urgent, true);
      assert.equal(defaulted.meta, null);
    });

    test("every read and update agrees", async () => {
      const task = await Task.create({ title: "c", done: true, urgent: false });
      assert.equal((await Task.find(task.id))?.done, true);
      assert.equal((await Task.findBy({ title: "c" }))?.urgent, false);
      assert.ok((await Task.where({ done: true })).every((row) => row.done === true));
      assert.ok((await Task.all()).every((row) => typeof row.done === "boolean"));
      const changed = await Task.update(task.id, { done: false, meta: { tags: [], level: 0 } });
      assert.equal(changed.done, false);
      assert.deepEqual(changed.meta, { tags: [], level: 0 });
      const raw = (await Task.query().where("id", task.id).first()) as unknown as Record<string, unknown>;
      const hydrated = Task.hydrate(raw);
      assert.equal(hydrated.done, false);
      assert.deepEqual(hydrated.meta, { tags: [], level: 0 });
    });
  });
}

suite("SQLite", () => connect("sqlite::memory:"));
suite("PostgreSQL", async () => connect(await requireServer("postgres")), { skip: serverSkip.skip });
suite("MariaDB", async () => connect(await requireServer("mysql")), { skip: serverSkip.skip });
