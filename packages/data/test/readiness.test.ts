/**
 * The data battery's readiness: the database and the migrations are two required parts, named
 * without the URL; a migration not applied yet makes the node unready, a draft does not.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { PluginContext, ReadinessCheck } from "@fwkit/koa-host/plugin";
import { dataPlugin } from "../src/index.js";
import { makeMigration, migrate } from "../src/plugin-api.js";

const root = mkdtempSync(join(tmpdir(), "data-readiness-"));
after(() => rmSync(root, { recursive: true, force: true }));

function context(): PluginContext {
  const logger = { info: () => {}, warn: () => {} };
  return { config: { env: "test", secretKey: "s", root }, logger, table: undefined } as unknown as PluginContext;
}

const states = async (checks: readonly ReadinessCheck[]) =>
  Object.fromEntries(
    await Promise.all(checks.map(async (check) => [check.name, (await check.check().catch(() => "down")) ?? "ok"])),
  );

test("database and migrations: pending until migrated, a draft holds nothing back, the database named without its URL", async () => {
  const dir = join(root, "migrations");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "20240101000000_create_widgets.ts"),
    `export async function up(knex) { await knex.schema.createTable("widgets", (t) => t.increments("id")); }
export async function down(knex) { await knex.schema.dropTable("widgets"); }
`,
  );
  const plugin = dataPlugin({ url: "sqlite:data/app.db", models: {} });
  await plugin.setup(context());
  try {
    const checks = plugin.readiness!();
    assert.deepEqual(await states(checks), { database: "ok", migrations: "pending" });
    assert.ok(
      checks.every((check) => check.required !== false),
      "both are required: without them the node serves errors",
    );
    await migrate(plugin.database.knex, dir);
    assert.deepEqual((await states(checks))["migrations"], "ok");
    makeMigration(dir, "create_gadgets");
    assert.deepEqual(
      (await states(checks))["migrations"],
      "ok",
      "a draft is not applied at start-up: it makes no node unready",
    );
    await plugin.database.knex.destroy();
    const database = checks.find((check) => check.name === "database")!;
    await assert.rejects(database.check(), (error: Error) => {
      assert.match(error.message, /^the database does not answer/);
      assert.doesNotMatch(error.message, /sqlite:|app\.db/);
      return true;
    });
  } finally {
    await plugin.close().catch(() => {});
  }
});
