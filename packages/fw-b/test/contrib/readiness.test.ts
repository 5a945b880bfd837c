// /readyz counts the contrib modules' migrations: a node whose contrib tables are behind its code
// (a module switched on, or a newer fw-b, deployed before the migrations ran) answers 503 naming
// `contribMigrations`, as it does for the app's own pending migrations, and 200 once migrated.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { dataConfig } from "@fwkit/data/plugin";
import { CONTRIB_TABLES, migrateAll } from "../../src/contrib/index.js";
import { contribSettings } from "../../src/contrib/config.js";
import { startContribApp, type ContribApp } from "./fixture.js";

const MAINTENANCE_MIGRATION = "fw-b/contrib/maintenance/20240101000004_create_fwb_settings";

async function readyz(
  app: ContribApp,
): Promise<{ status: number; body: { status: string; checks: Record<string, string> } }> {
  const res = await fetch(`${app.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
}

describe("readiness and the contrib migrations", () => {
  let app: ContribApp;
  before(async () => {
    // Each probe asks the database (no kept answer), so the test sees each change at once.
    app = await startContribApp({ config: { readyCache: 0 } });
  });
  after(async () => {
    await app.close();
  });

  test("ready once the contrib tables are migrated (autoMigrate)", async () => {
    const { status, body } = await readyz(app);
    assert.equal(status, 200);
    assert.equal(body.checks["contribMigrations"], "ok");
    assert.equal(body.checks["migrations"], "ok");
  });

  test("a pending contrib migration answers 503 naming it; migrating makes the node ready again", async () => {
    const knex = app.models.users.knex;
    // The maintenance module's migration not applied yet: its record and its table gone.
    await knex("knex_migrations").where({ name: MAINTENANCE_MIGRATION }).delete();
    await knex.schema.dropTable(CONTRIB_TABLES.settings);
    const pending = await readyz(app);
    assert.equal(pending.status, 503);
    assert.equal(pending.body.status, "unavailable");
    assert.equal(pending.body.checks["contribMigrations"], "pending");
    // The app's own migrations are up to date: only the contrib check holds the node back.
    assert.equal(pending.body.checks["migrations"], "ok");

    const applied = await migrateAll(knex, dataConfig(app.host.config).migrationsDir, contribSettings(app.host.config));
    assert.deepEqual(applied, [MAINTENANCE_MIGRATION]);
    const ready = await readyz(app);
    assert.equal(ready.status, 200);
    assert.equal(ready.body.checks["contribMigrations"], "ok");
  });
});
