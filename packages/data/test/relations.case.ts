/**
 * The relation suite every dialect runs: a database of its own with the conventional tables
 * (support/relation-models.ts), emptied before each case, and the read and write cases.
 */
import { after, before, beforeEach, describe } from "node:test";
import type { Knex } from "knex";
import { relationPerOwnerCases } from "./relations-per-owner.case.js";
import { relationReadCases } from "./relations-read.case.js";
import { relationWriteCases } from "./relations-write.case.js";
import { type OwnDatabase, ownDatabase } from "./support/relation-database.js";
import { bindRelationModels, createRelationTables } from "./support/relation-models.js";

/** What the cases get: the open database's knex. */
export interface RelationFixture {
  knex(): Knex;
}

const TABLES = ["comments", "task_assignees", "tasks", "profiles", "projects", "users"];

/** Registers the relation suite for one dialect. */
export function relationSuite(
  name: string,
  dialect: "sqlite" | "postgres" | "mysql",
  skip: { skip: string | false } = { skip: false },
): void {
  let own: OwnDatabase | undefined;
  const fx: RelationFixture = {
    knex() {
      if (!own) throw new Error(`the ${name} database is not open`);
      return own.db.knex;
    },
  };
  describe(`relations on ${name}`, skip, () => {
    before(async () => {
      own = await ownDatabase(dialect);
      await createRelationTables(own.db.knex);
      bindRelationModels(own.db.knex);
    });
    beforeEach(async () => {
      for (const table of TABLES) await fx.knex()(table).del();
    });
    after(async () => {
      await own?.drop();
    });
    relationReadCases(fx);
    relationWriteCases(fx);
    relationPerOwnerCases(fx);
  });
}
