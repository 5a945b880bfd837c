/**
 * Seeds as the CLI runs them (seedApp): an app folder with lib/models.ts and seeds/, on SQLite,
 * PostgreSQL and MariaDB: every seed in name order with the app's models and factories, one
 * seed with `file`, a failing seed rolled back, and production refused without `force`.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import { requireServer } from "@fwkit/test-servers";
import { connect, modelTimestamps, type Database } from "../src/index.js";
import { listSeeds } from "../src/plugin-api.js";
import { seedApp } from "../src/plugin-api.js";
import { rejectsWith } from "./support/model-fixture.js";

const dataIndex = pathToFileURL(join(import.meta.dirname, "../src/index.ts")).href;

/** An app folder whose models and seeds use tables unique to this run. */
function appFolder(suffix: string): { root: string; users: string; notes: string } {
  const root = mkdtempSync(join(tmpdir(), "data-seeds-"));
  const users = `seed_users_${suffix}`;
  const notes = `seed_notes_${suffix}`;
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "seeded", type: "module" }));
  mkdirSync(join(root, "lib"));
  mkdirSync(join(root, "seeds"));
  writeFileSync(
    join(root, "lib/models.ts"),
    `import { defineModel, defineFactory, type BaseRow } from ${JSON.stringify(dataIndex)};
export interface UserRow extends BaseRow { id: number; name: string }
export interface NoteRow extends BaseRow { id: number; title: string; user_id: number }
export const User = defineModel<UserRow>(${JSON.stringify(users)});
export const Note = defineModel<NoteRow>(${JSON.stringify(notes)});
export const Users = defineFactory(User, ({ faker }) => ({ name: faker.person.fullName() }));
export const Notes = defineFactory(Note, ({ faker }) => ({ title: faker.lorem.words(3), user_id: async () => (await Users.create()).id }));
`,
  );
  writeFileSync(
    join(root, "seeds/01_users.ts"),
    `import type { SeedContext } from ${JSON.stringify(dataIndex)};
import { Users } from "../lib/models.ts";
export async function seed({ models, env }: SeedContext) {
  if (!models.User) throw new Error("the models are given to seeds");
  await Users.createMany(2, { name: "seeded in " + env });
}
`,
  );
  writeFileSync(
    join(root, "seeds/02_notes.ts"),
    `import { Notes } from "../lib/models.ts";
export async function seed() {
  await Notes.createMany(3);
}
`,
  );
  writeFileSync(join(root, "seeds/helpers.d.ts"), "export {};\n");
  return { root, users, notes };
}

function seedSuite(name: string, url: () => Promise<string>): void {
  const suffix = `${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const app = appFolder(suffix);
  let dbUrl = "";
  let db: Database | undefined;
  const count = async (table: string) =>
    Number(((await db!.knex(table).count({ n: "*" })) as { n: number | string }[])[0]!.n);

  describe(`seeds on ${name}`, () => {
    before(async () => {
      dbUrl = await url();
      db = await connect(dbUrl, { root: app.root });
      await db.knex.schema.createTable(app.users, (table) => {
        table.increments("id");
        table.string("name", 200).notNullable();
        modelTimestamps(table);
      });
      await db.knex.schema.createTable(app.notes, (table) => {
        table.increments("id");
        table.string("title", 200).notNullable();
        table.integer("user_id").unsigned().notNullable().references("id").inTable(app.users);
        modelTimestamps(table);
      });
    });
    after(async () => {
      if (db) {
        await db.knex.schema.dropTableIfExists(app.notes);
        await db.knex.schema.dropTableIfExists(app.users);
        await db.close();
      }
      rmSync(app.root, { recursive: true, force: true });
    });

    test("every seed runs in name order with the app's models and factories", async () => {
      assert.deepEqual(listSeeds(join(app.root, "seeds")), ["01_users.ts", "02_notes.ts"]);
      const ran = await seedApp({ root: app.root, dbUrl, env: "development" });
      assert.deepEqual(ran, ["01_users.ts", "02_notes.ts"]);
      assert.equal(await count(app.users), 5, "two seeded users and one author per note");
      assert.equal(await count(app.notes), 3);
      const seeded = await db!.knex(app.users).where({ name: "seeded in development" });
      assert.equal(seeded.length, 2);
    });

    test("--file runs one seed, named with or without its extension", async () => {
      assert.deepEqual(await seedApp({ root: app.root, dbUrl }, { file: "02_notes" }), ["02_notes.ts"]);
      assert.deepEqual(await seedApp({ root: app.root, dbUrl }, { file: "02_notes.ts" }), ["02_notes.ts"]);
      assert.equal(await count(app.notes), 9);
      const error = await rejectsWith(
        seedApp({ root: app.root, dbUrl }, { file: "03_missing" }),
        "E_SEED_NOT_FOUND",
        404,
      );
      assert.match(error.message, /01_users\.ts, 02_notes\.ts/);
    });

    test("a seed that throws leaves none of its rows", async () => {
      writeFileSync(
        join(app.root, "seeds/03_broken.ts"),
        `import { Users } from "../lib/models.ts";
export async function seed() {
  await Users.createMany(3, { name: "half-written" });
  throw new Error("the seed failed after three rows");
}
`,
      );
      const failed = await rejectsWith(seedApp({ root: app.root, dbUrl }, { file: "03_broken" }), "E_SEED_FAILED", 500);
      // Which file, what it threw, and that its writes are gone.
      assert.match(failed.message, /seeds\/03_broken\.ts failed: the seed failed after three rows/);
      assert.match(failed.message, /its writes were rolled back/);
      assert.ok((failed as Error & { cause?: unknown }).cause instanceof Error, "the seed's own error is the cause");
      assert.equal((await db!.knex(app.users).where({ name: "half-written" })).length, 0);
      writeFileSync(join(app.root, "seeds/04_no_export.ts"), "export const nothing = 1;\n");
      await rejectsWith(seedApp({ root: app.root, dbUrl }, { file: "04_no_export" }), "E_SEED_LOAD", 500);
      rmSync(join(app.root, "seeds/03_broken.ts"));
      rmSync(join(app.root, "seeds/04_no_export.ts"));
    });

    test("production is refused without force, and seeded with it", async () => {
      const before = await count(app.notes);
      const error = await rejectsWith(
        seedApp({ root: app.root, dbUrl, env: "production" }, { command: "fw-a db:seed" }),
        "E_SEED_IN_PRODUCTION",
        409,
      );
      assert.match(error.message, /fw-a db:seed --force/);
      assert.equal(await count(app.notes), before);
      await seedApp({ root: app.root, dbUrl, env: "production" }, { file: "02_notes", force: true });
      assert.equal(await count(app.notes), before + 3);
    });
  });
}

seedSuite("SQLite", async () => "sqlite:data/seed.db");
seedSuite("PostgreSQL", () => requireServer("postgres"));
seedSuite("MariaDB", () => requireServer("mysql"));
