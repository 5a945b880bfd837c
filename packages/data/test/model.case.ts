/**
 * The one model suite every dialect runs (SQLite, PostgreSQL, MariaDB): it creates tables unique
 * to the run, binds the models, and registers the CRUD/soft-delete cases and the
 * transaction/safety/pagination cases against them.
 */
import { after, before, describe } from "node:test";
import { dateColumn, modelTimestamps, type Database } from "../src/index.js";
import { crudCases } from "./model-crud.case.js";
import { ruleCases } from "./model-rules.case.js";
import { modelFixture } from "./support/model-fixture.js";

/** Options of {@link modelSuite}. */
export interface SuiteOptions {
  /** `describe()` options (serverSkip for server dialects). */
  readonly skip?: { skip: string | false };
}

/** Registers the model suite for one database; `open` connects to it. */
export function modelSuite(name: string, open: () => Promise<Database>, options: SuiteOptions = {}): void {
  const fx = modelFixture();
  const { usersTable, postsTable } = fx;
  let opened = false;

  describe(`models on ${name}`, options.skip ?? {}, () => {
    before(async () => {
      const db = await open();
      fx.open(db);
      opened = true;
      await db.knex.schema.createTable(usersTable, (table) => {
        table.increments("id");
        table.string("email", 200).notNullable().unique();
        table.string("name", 50).notNullable();
        table.text("bio").nullable();
        dateColumn(table, "published_at").nullable();
        modelTimestamps(table);
      });
      await db.knex.schema.createTable(postsTable, (table) => {
        table.increments("id");
        table.string("title", 200).notNullable();
        table.integer("author_id").unsigned().nullable().references("id").inTable(usersTable);
        modelTimestamps(table, { softDelete: true });
      });
      fx.User.bind(db.knex);
      fx.Post.bind(db.knex);
    });

    after(async () => {
      if (!opened) return;
      const knex = fx.knex();
      await knex.schema.dropTableIfExists(postsTable);
      await knex.schema.dropTableIfExists(usersTable);
      await fx.db().close();
    });

    crudCases(fx);
    ruleCases(fx);
  });
}
