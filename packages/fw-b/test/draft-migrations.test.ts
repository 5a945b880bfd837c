// Issue 15.7: `fw-b :make-migration` while the development server runs restarted the app, which applied the
// empty template at once, so the user's edits were never applied. A migration not edited since it
// was made waits; the next start after the edit applies the edited file.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { connect } from "@fwkit/data";
import { createApp, FwB } from "../src/index.js";

const main = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["--conditions=source", `--import=${import.meta.resolve("tsx")}`, main, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, FW_TS_LOADER: "" } });
const root = mkdtempSync(join(tmpdir(), "fw-b-drafts-"));
after(() => rmSync(root, { recursive: true, force: true }));

class Index extends FwB {
  index() {
    return "home";
  }
}

/** Builds the app as the development server's child does (autoMigrate is on in development), then closes it. */
async function start(): Promise<{ widgets: boolean; colour: boolean }> {
  const host = await createApp({
    root,
    modules: [{ name: "main", exports: { Index } }],
    config: { env: "development", dbUrl: "sqlite:data/app.db", logLevel: "silent", logRequests: false },
  });
  await host.close();
  const db = await connect("sqlite:data/app.db", { root });
  try {
    const widgets = await db.knex.schema.hasTable("widgets");
    return { widgets, colour: widgets && (await db.knex.schema.hasColumn("widgets", "colour")) };
  } finally {
    await db.close();
  }
}

test("a migration made by :make-migration is not applied at start-up until it is edited", async () => {
  const made = cli(":make-migration", "create_widgets");
  assert.equal(made.status, 0, made.stderr);
  const file = /(\/\S+_create_widgets\.ts)/.exec(made.stdout)?.[1];
  assert.ok(file, made.stdout);

  const waiting = cli(":migrations");
  assert.equal(waiting.status, 0, waiting.stderr);
  assert.match(waiting.stdout, /create_widgets\.ts\s+\(draft: not applied at start-up until edited/, "the status command says why it waits");
  assert.deepEqual(await start(), { widgets: false, colour: false }, "the restart that follows :make-migration applies nothing");
  writeFileSync(file, readFileSync(file, "utf8").replace('table.increments("id");', 'table.increments("id");\n    table.string("colour");'));
  assert.deepEqual(await start(), { widgets: true, colour: true }, "the edited migration is applied at the next start");
  assert.doesNotMatch(cli(":migrations").stdout, /draft/);
});
