/**
 * A migration is named by its file name without extension: migrating from the sources (`.ts`) and
 * then from a build (`.js`) is one history, and a database whose records carry the extension (made
 * before this rule, by either) keeps working, on each database.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { connect, type Database, type Knex } from "../src/index.js";
import { migrate, migrationStatus, pendingMigrations, rollback } from "../src/plugin-api.js";

const root = mkdtempSync(join(tmpdir(), "data-migration-names-"));
after(() => rmSync(root, { recursive: true, force: true }));

const unique = () => `mn_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;

/** The same two migrations as TypeScript sources and as the JavaScript a build makes of them. */
function sourcesAndBuild(id: string): { sources: string; build: string; names: string[]; tables: string[] } {
  const sources = join(root, id, "migrations");
  const build = join(root, id, "build", "migrations");
  mkdirSync(sources, { recursive: true });
  mkdirSync(build, { recursive: true });
  const names = [`20240101000000_create_${id}_a`, `20240102000000_create_${id}_b`];
  const tables = [`${id}_a`, `${id}_b`];
  names.forEach((name, index) => {
    const body = (types: string) => `export async function up(knex${types}) {
  await knex.schema.createTable("${tables[index]}", (t) => { t.increments("id"); });
}
export async function down(knex${types}) {
  await knex.schema.dropTable("${tables[index]}");
}
`;
    writeFileSync(join(sources, `${name}.ts`), `import type { Knex } from "knex";\n${body(": Knex")}`);
    writeFileSync(join(build, `${name}.js`), body(""));
  });
  return { sources, build, names, tables };
}

function namesSuite(
  label: string,
  open: () => Promise<Database>,
  options: { skip: string | false } = { skip: false },
): void {
  describe(`migration names on ${label}`, options, () => {
    test("migrated from the .ts sources, the built .js migrations have nothing pending", async () => {
      const db = await open();
      const id = unique();
      const tableName = `knex_migrations_${id}`;
      const { sources, build, names, tables } = sourcesAndBuild(id);
      try {
        assert.deepEqual(await migrate(db.knex, sources, { tableName }), names);
        const recorded = (await db.knex(tableName).orderBy("id").pluck("name")) as string[];
        assert.deepEqual(recorded, names, "recorded without the extension");
        assert.deepEqual(await pendingMigrations(db.knex, build, { tableName }), [], "the build sees nothing pending");
        assert.deepEqual(
          await migrate(db.knex, build, { tableName }),
          [],
          "and applies nothing (no 'relation already exists')",
        );
        assert.deepEqual(
          await rollback(db.knex, build, { tableName }),
          [...names].reverse(),
          "the build rolls the sources' batch back",
        );
        assert.equal(await db.knex.schema.hasTable(tables[0]!), false);
      } finally {
        await drop(db.knex, tables, tableName);
        await db.close();
      }
    });

    test("a database whose records carry .ts or .js keeps working from either", async () => {
      const db = await open();
      const id = unique();
      const tableName = `knex_migrations_${id}`;
      const { sources, build, names, tables } = sourcesAndBuild(id);
      try {
        await migrate(db.knex, sources, { tableName });
        // As an older version recorded them: the first from the sources, the second from a build.
        await db
          .knex(tableName)
          .where({ name: names[0] })
          .update({ name: `${names[0]}.ts` });
        await db
          .knex(tableName)
          .where({ name: names[1] })
          .update({ name: `${names[1]}.js` });
        for (const dir of [sources, build]) {
          assert.deepEqual(await pendingMigrations(db.knex, dir, { tableName }), [], dir);
          assert.deepEqual(await migrate(db.knex, dir, { tableName }), [], dir);
          assert.deepEqual(
            (await migrationStatus(db.knex, dir, { tableName })).map((state) => [state.name, state.applied]),
            names.map((name) => [name, true]),
            "one entry per migration, applied",
          );
        }
        assert.deepEqual(
          await rollback(db.knex, build, { tableName }),
          [`${names[1]}.js`, `${names[0]}.ts`],
          "rollback removes the old records",
        );
        assert.deepEqual(await db.knex(tableName).pluck("name"), []);
        assert.deepEqual(await migrate(db.knex, build, { tableName }), names, "applied again under the new names");
      } finally {
        await drop(db.knex, tables, tableName);
        await db.close();
      }
    });

    test("shipped migrations and old records of the app's files live in one history", async () => {
      const db = await open();
      const id = unique();
      const tableName = `knex_migrations_${id}`;
      const { sources, build, names, tables } = sourcesAndBuild(id);
      const shippedTable = `${id}_s`;
      const shipped = [
        {
          name: `pkg/module/20230101000000_create_${shippedTable}`,
          up: (knex: Knex) => knex.schema.createTable(shippedTable, (t) => t.increments("id")),
          down: (knex: Knex) => knex.schema.dropTable(shippedTable),
        },
      ];
      try {
        assert.deepEqual(await migrate(db.knex, sources, { tableName, shipped }), [shipped[0]!.name, ...names]);
        await db
          .knex(tableName)
          .where({ name: names[0] })
          .update({ name: `${names[0]}.ts` });
        assert.deepEqual(await migrate(db.knex, build, { tableName, shipped }), []);
        assert.deepEqual(await pendingMigrations(db.knex, build, { tableName, shipped }), []);
        assert.deepEqual(await rollback(db.knex, build, { tableName, shipped, all: true }), [
          names[1],
          `${names[0]}.ts`,
          shipped[0]!.name,
        ]);
      } finally {
        await drop(db.knex, [...tables, shippedTable], tableName);
        await db.close();
      }
    });
  });
}

async function drop(knex: Knex, tables: readonly string[], tableName: string): Promise<void> {
  for (const table of [...tables].reverse()) await knex.schema.dropTableIfExists(table);
  await knex.schema.dropTableIfExists(tableName);
  await knex.schema.dropTableIfExists(`${tableName}_lock`);
}

namesSuite("SQLite", () => connect(`sqlite:${join(root, "app.db")}`));
namesSuite("PostgreSQL", async () => connect(await requireServer("postgres")), serverSkip);
namesSuite("MariaDB", async () => connect(await requireServer("mysql")), serverSkip);
