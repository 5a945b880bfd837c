/**
 * `db:make` (or `:make-migration`) while the development server runs restarted the
 * app, whose start-up migration applied the empty template at once, so the user's edits were never
 * applied. A migration not edited since it was made is a draft: start-up migration stops before it
 * (and the migrations after it) until it is edited; the migrate commands still apply it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, describe, test } from "node:test";
import type { PluginContext } from "@fwkit/koa-host/plugin";
import { connect, dataPlugin } from "../src/index.js";
import { makeMigration, migrate, migrationStatus } from "../src/plugin-api.js";
import { isDraftMigration, markDraft } from "../src/plugin-api.js";

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function appRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "data-drafts-"));
  roots.push(root);
  return root;
}

function context(root: string, warnings: string[]): PluginContext {
  // The held-drafts line is logged at info (the dev server shows it, a user command at warn does not).
  const logger = {
    info: (_: unknown, message: string) => void (/unedited template/.test(message) && warnings.push(message)),
    warn: (_: unknown, message: string) => warnings.push(message),
  };
  return { config: { env: "development", secretKey: "s", root }, logger, table: undefined } as unknown as PluginContext;
}

/** Starts the data plugin as an app's start-up does with autoMigrate on, then stops it; returns the tables and warnings. */
async function startUp(root: string, url?: string): Promise<{ tables: string[]; warnings: string[] }> {
  const warnings: string[] = [];
  const plugin = dataPlugin({ migrate: true, models: {}, ...(url === undefined ? {} : { url }) });
  await plugin.setup(context(root, warnings));
  try {
    const rows = (await plugin.database.knex.raw("select name from sqlite_master where type = 'table'")) as {
      name: string;
    }[];
    return { tables: rows.map((row) => row.name), warnings };
  } finally {
    await plugin.close();
  }
}

describe("draft migrations", () => {
  test("a new migration carries a draft mark that any edit removes", () => {
    const source = markDraft("export async function up() {}\nexport async function down() {}\n");
    assert.equal(isDraftMigration(source), true);
    assert.equal(isDraftMigration(source.replace("up() {}", "up() { /* mine */ }")), false, "an edit");
    assert.equal(
      isDraftMigration(
        source
          .split("\n")
          .filter((line) => !line.startsWith("// fw:draft"))
          .join("\n"),
      ),
      false,
      "the mark deleted",
    );
    assert.equal(isDraftMigration("export async function up() {}\n"), false, "a hand-written file");
  });

  test("start-up migration leaves a just-made migration alone, and applies it once it is edited", async () => {
    const root = appRoot();
    const dir = join(root, "migrations");
    const file = makeMigration(dir, "create_widgets", { now: new Date("2024-03-01T00:00:00Z") });
    // A later migration, already edited: it waits too, so migrations keep the order they were made in.
    const later = makeMigration(dir, "create_gadgets", { now: new Date("2024-03-02T00:00:00Z") });
    writeFileSync(
      later,
      readFileSync(later, "utf8").replace(
        'table.increments("id");',
        'table.increments("id");\n    table.string("label");',
      ),
    );

    const first = await startUp(root);
    assert.ok(!first.tables.includes("widgets"), "the unedited template is not applied");
    assert.ok(!first.tables.includes("gadgets"), "nor a migration made after it");
    assert.equal(first.warnings.length, 1);
    assert.match(
      first.warnings[0]!,
      new RegExp(
        `${basename(file)} is still the unedited template: it and the 1 migration made after it are not applied at start-up until you edit it`,
      ),
    );

    // The user's edit, saved while the server runs: the restart applies both, in order.
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        'table.increments("id");',
        'table.increments("id");\n    table.string("colour");',
      ),
    );
    const second = await startUp(root);
    assert.ok(second.tables.includes("widgets") && second.tables.includes("gadgets"), second.tables.join(", "));
    assert.deepEqual(second.warnings, []);
    const db = await connect("sqlite:data/app.db", { root });
    try {
      assert.ok(await db.knex.schema.hasColumn("widgets", "colour"), "the edited migration is the one applied");
      assert.deepEqual(
        (await migrationStatus(db.knex, dir)).map((state) => state.applied),
        [true, true],
      );
    } finally {
      await db.close();
    }
  });

  test("a database in memory (the test environment's) applies drafts at start-up: it keeps no record to go stale", async () => {
    const root = appRoot();
    makeMigration(join(root, "migrations"), "create_widgets", { now: new Date("2024-03-01T00:00:00Z") });
    const started = await startUp(root, "sqlite::memory:");
    assert.ok(started.tables.includes("widgets"), started.tables.join(", "));
    assert.deepEqual(started.warnings, []);
  });

  test("the migrate command applies a draft: running it is deliberate", async () => {
    const root = appRoot();
    const dir = join(root, "migrations");
    const file = makeMigration(dir, "create_sprockets");
    const db = await connect("sqlite:data/app.db", { root });
    try {
      assert.deepEqual(await migrate(db.knex, dir), [basename(file, ".ts")]);
      assert.ok(await db.knex.schema.hasTable("sprockets"));
    } finally {
      await db.close();
    }
  });
});
