import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, describe, test } from "node:test";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { connect, type Database, type Knex } from "../src/index.js";
import { makeMigration, migrate, migrationStatus, rollback } from "../src/plugin-api.js";
import { migrationCliCommands, migrationCommands } from "../src/plugin-api.js";

const root = mkdtempSync(join(tmpdir(), "data-migrations-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** A migration's name: its file name without extension. */
const nameOf = (file: string) => basename(file).replace(/\.ts$/, "");

const unique = () => `mig_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;

function tableTemplate(table: string): string {
  return `import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("${table}", (t) => {
    t.increments("id");
    t.string("name", 100).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("${table}");
}
`;
}

/** The same migration scenario on one database. */
function migrationSuite(
  name: string,
  open: () => Promise<Database>,
  options: { skip: string | false } = { skip: false },
): void {
  describe(`migrations on ${name}`, options, () => {
    test("make, migrate, status, rollback and migrate again with TypeScript files", async () => {
      const db = await open();
      const dir = join(root, unique());
      const id = unique();
      const tableName = `knex_migrations_${id}`;
      const first = `${id}_a`;
      const second = `${id}_b`;
      try {
        const firstFile = makeMigration(dir, `create_${first}`, { now: new Date("2024-01-01T00:00:00Z") });
        assert.equal(basename(firstFile), `20240101000000_create_${first}.ts`);
        assert.equal(
          nameOf(firstFile),
          `20240101000000_create_${first}`,
          "a migration's name is its file name without extension",
        );
        const secondFile = makeMigration(dir, "add_second", {
          now: new Date("2024-01-02T00:00:00Z"),
          template: tableTemplate(second),
        });

        assert.deepEqual(await migrationStatus(db.knex, dir, { tableName }), [
          { name: nameOf(firstFile), applied: false, file: basename(firstFile) },
          { name: nameOf(secondFile), applied: false, file: basename(secondFile) },
        ]);
        assert.deepEqual(await migrate(db.knex, dir, { tableName }), [nameOf(firstFile), nameOf(secondFile)]);
        assert.ok(await db.knex.schema.hasTable(first), "the default template creates the table its name says");
        assert.ok(await db.knex.schema.hasColumn(first, "created_at"));
        assert.ok(await db.knex.schema.hasTable(second));
        assert.deepEqual(await migrate(db.knex, dir, { tableName }), [], "nothing left to apply");
        assert.deepEqual(
          (await migrationStatus(db.knex, dir, { tableName })).map((m) => m.applied),
          [true, true],
        );

        assert.deepEqual(
          await rollback(db.knex, dir, { tableName }),
          [nameOf(secondFile), nameOf(firstFile)],
          "undone newest first",
        );
        assert.ok(!(await db.knex.schema.hasTable(first)));
        assert.ok(!(await db.knex.schema.hasTable(second)));
        assert.deepEqual(await rollback(db.knex, dir, { tableName }), [], "nothing left to roll back");

        await migrate(db.knex, dir, { tableName });
        const third = makeMigration(dir, "third", {
          now: new Date("2024-01-03T00:00:00Z"),
          template: tableTemplate(`${id}_c`),
        });
        assert.deepEqual(await migrate(db.knex, dir, { tableName }), [nameOf(third)], "a new batch");
        assert.deepEqual(
          await rollback(db.knex, dir, { tableName }),
          [nameOf(third)],
          "rollback undoes the last batch only",
        );
        assert.ok(await db.knex.schema.hasTable(second));
        assert.deepEqual((await rollback(db.knex, dir, { tableName, all: true })).length, 2);
        assert.ok(!(await db.knex.schema.hasTable(first)));
      } finally {
        for (const table of [first, second, `${id}_c`, tableName, `${tableName}_lock`])
          await db.knex.schema.dropTableIfExists(table);
        await db.close();
      }
    });
  });
}

migrationSuite("SQLite", () => connect(`sqlite:${join(root, "app.db")}`));
migrationSuite("PostgreSQL", async () => connect(await requireServer("postgres")), serverSkip);
migrationSuite("MariaDB", async () => connect(await requireServer("mysql")), serverSkip);

describe("makeMigration", () => {
  test("refuses names that are not plain words", () => {
    const dir = join(root, unique());
    for (const name of ["../../etc/passwd", "", "a b", "x;rm -rf", "ünï", "-lead", "x".repeat(101)]) {
      assert.throws(() => makeMigration(dir, name), { code: "E_BAD_MIGRATION_NAME", status: 400 }, name);
    }
  });

  test("never overwrites a file", () => {
    const dir = join(root, unique());
    const now = new Date("2024-02-02T10:00:00Z");
    const file = makeMigration(dir, "create_posts", { now });
    assert.throws(() => makeMigration(dir, "create_posts", { now }), { code: "E_MIGRATION_EXISTS" });
    const source = readFileSync(file, "utf8");
    assert.match(source, /createTable\("posts"/);
    assert.match(source, /import type \{ Knex \} from "knex"/);
    assert.match(makeMigrationSource(dir, "fw"), /import type \{ Knex \} from "fw-a"/);
  });

  test("the name says what the migration does: add_X_to_T and remove_X_from_T alter T, and they apply and roll back", async () => {
    const dir = join(root, unique());
    const add = readFileSync(
      makeMigration(dir, "add_author_to_posts", { now: new Date("2024-03-02T00:00:00Z") }),
      "utf8",
    );
    assert.match(add, /alterTable\("posts"/);
    assert.match(add, /table\.string\("author"\)\.nullable\(\)/);
    assert.match(add, /dropColumn\("author"\)/);
    assert.doesNotMatch(add, /createTable/);
    const remove = readFileSync(
      makeMigration(dir, "remove_summary_from_posts", { now: new Date("2024-03-03T00:00:00Z") }),
      "utf8",
    );
    assert.match(remove, /alterTable\("posts", \(table\) => \{\n\s+table\.dropColumn\("summary"\)/);
    const other = readFileSync(makeMigration(dir, "backfill_slugs", { now: new Date("2024-03-04T00:00:00Z") }), "utf8");
    assert.doesNotMatch(other, /createTable\("backfill_slugs"/, "a name that says no table creates none");
    makeMigration(dir, "create_posts", { now: new Date("2024-03-01T00:00:00Z") });
    writeFileSync(
      join(dir, "20240302120000_summary.ts"),
      'export async function up(knex) { await knex.schema.alterTable("posts", (t) => t.string("summary")); }\nexport async function down(knex) { await knex.schema.alterTable("posts", (t) => t.dropColumn("summary")); }\n',
    );
    const db = await connect("sqlite::memory:");
    try {
      await migrate(db.knex, dir);
      assert.ok(await db.knex.schema.hasColumn("posts", "author"));
      assert.ok(!(await db.knex.schema.hasColumn("posts", "summary")), "remove_summary_from_posts dropped it");
      await rollback(db.knex, dir, { all: true });
      assert.ok(!(await db.knex.schema.hasTable("posts")));
    } finally {
      await db.close();
    }
  });

  test("a file without up/down, or that fails to import, is E_MIGRATION_LOAD naming it", async () => {
    const db = await connect("sqlite::memory:");
    try {
      const dir = join(root, unique());
      makeMigration(dir, "ok", { now: new Date("2024-01-01T00:00:00Z") });
      writeFileSync(join(dir, "20240102000000_broken.ts"), "export const up = 1;\n");
      await assert.rejects(migrate(db.knex, dir), (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_MIGRATION_LOAD");
        assert.match(error.message, /20240102000000_broken\.ts/);
        return true;
      });
      writeFileSync(join(dir, "20240102000000_broken.ts"), "this is not TypeScript {{{\n");
      await assert.rejects(migrate(db.knex, dir), { code: "E_MIGRATION_LOAD" });
    } finally {
      await db.close();
    }
  });

  test("a missing migrations folder means no migrations", async () => {
    const db = await connect("sqlite::memory:");
    assert.deepEqual(await migrate(db.knex, join(root, "does-not-exist")), []);
    assert.deepEqual(await migrationStatus(db.knex, join(root, "does-not-exist")), []);
    await db.close();
  });
});

function makeMigrationSource(dir: string, name: string): string {
  return readFileSync(makeMigration(dir, name, { typesFrom: "fw-a" }), "utf8");
}

describe("migrationCommands", () => {
  test("run against the app config's database and migrations folder", async () => {
    const appRoot = join(root, unique());
    const commands = migrationCommands({ root: appRoot, dbUrl: "sqlite:data/app.db" }, { typesFrom: "fw-b" });
    assert.equal(commands.dir, join(appRoot, "migrations"));
    const file = commands.make("create_notes");
    assert.ok(file.startsWith(join(appRoot, "migrations")));
    assert.match(readFileSync(file, "utf8"), /from "fw-b"/);
    assert.deepEqual(await commands.migrate(), [nameOf(file)]);
    assert.ok(existsSync(join(appRoot, "data", "app.db")));
    assert.deepEqual(await commands.status(), [
      { name: nameOf(file), applied: true, file: basename(file), draft: false },
    ]);
    assert.deepEqual(await commands.rollback(), [nameOf(file)]);
    assert.deepEqual(
      await commands.status(),
      [{ name: nameOf(file), applied: false, file: basename(file), draft: true }],
      "a pending file as make wrote it is a draft",
    );
  });

  test("migrations shipped in code run before the app's files, in one history; switched off later is no error", async () => {
    const appRoot = join(root, unique());
    const table = unique();
    const ran: string[] = [];
    const shipped = [
      {
        name: `pkg/module/20240101000001_create_${table}`,
        async up(knex: Knex) {
          ran.push("shipped");
          await knex.schema.createTable(table, (t) => t.increments("id"));
        },
        async down(knex: Knex) {
          await knex.schema.dropTable(table);
        },
      },
    ];
    const config = { root: appRoot, dbUrl: "sqlite:data/app.db" };
    const file = migrationCommands(config).make("add_things");
    writeFileSync(file, tableTemplate(`${table}_things`));
    const withModule = migrationCommands(config, { shipped });
    assert.deepEqual(await withModule.migrate(), [shipped[0]!.name, nameOf(file)]);
    assert.deepEqual(ran, ["shipped"]);
    assert.deepEqual(
      (await withModule.status()).map((s) => [s.name, s.applied]),
      [
        [shipped[0]!.name, true],
        [nameOf(file), true],
      ],
    );
    const withoutModule = migrationCommands(config, { shipped: [] });
    assert.deepEqual(
      await withoutModule.migrate(),
      [],
      "an applied shipped migration missing from the list is no error",
    );
    assert.deepEqual(await withModule.rollback({ all: true }), [nameOf(file), shipped[0]!.name]);
  });
});

describe("migrationCliCommands", () => {
  test("the four commands under a framework's names print the same lines for both frameworks", async () => {
    const appRoot = join(root, unique());
    const names = { migrate: "db:migrate", rollback: "db:rollback", make: "db:make", status: "db:status" };
    const commands = migrationCliCommands(names, async () =>
      migrationCommands({ root: appRoot, dbUrl: "sqlite:data/app.db" }),
    );
    assert.deepEqual(
      commands.map((c) => c.command),
      ["db:migrate", "db:rollback", "db:make <name>", "db:status"],
    );
    const run = async (command: string, args: Record<string, unknown> = {}): Promise<string> => {
      const lines: string[] = [];
      const log = console.log;
      console.log = (line: string) => void lines.push(line);
      try {
        await commands.find((c) => c.command.startsWith(command))!.handler({ root: appRoot, ...args });
      } finally {
        console.log = log;
      }
      return lines.join("\n");
    };
    assert.match(await run("db:migrate"), /^Nothing to migrate \(sqlite:/);
    const made = /^created (\S+_add_notes\.ts)$/.exec(await run("db:make", { name: "add_notes" }))?.[1];
    assert.ok(made, "make prints the path it created");
    assert.match(await run("db:status"), /^\[ \] \d+_add_notes \(draft: /);
    writeFileSync(made, tableTemplate(`notes_${unique()}`));
    assert.match(await run("db:migrate"), /^applied \d+_add_notes$/);
    assert.match(await run("db:status"), /^\[x\] \d+_add_notes$/);
    assert.match(await run("db:rollback"), /^rolled back \d+_add_notes$/);
    assert.equal(await run("db:rollback"), "Nothing to roll back.");
  });
});
