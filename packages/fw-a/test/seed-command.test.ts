// `fw-a db:seed` on an app folder: every seed of seeds/ (with the app's factories), one seed with
// --file, an unknown one named with the list of seeds, and production refused without --force.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { connect, modelTimestamps, type Database } from "@fwkit/data";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const main = join(packageDir, "src/cli/main.ts");

describe("fw-a db:seed", () => {
  // Inside the package so the app's `import ... from "fw-a"` finds the framework.
  const app = join(packageDir, "test", `.seed-app-${process.pid}`);
  const data = mkdtempSync(join(tmpdir(), "fw-a-seed-"));
  const env = { ...process.env, DB_URL: `sqlite:${join(data, "app.db")}`, APP_ENV: "" };
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", main, ...args, "--root", app], {
      cwd: packageDir,
      encoding: "utf8",
      env,
    });
  let db: Database;
  const titles = async () =>
    (await db.knex("notes").orderBy("id").select("title")).map((row: { title: string }) => row.title);

  before(async () => {
    cpSync(join(packageDir, "test/factory-app"), app, { recursive: true });
    mkdirSync(join(app, "seeds"));
    writeFileSync(
      join(app, "seeds/01_notes.ts"),
      'import { Notes } from "../lib/factories.js";\nexport async function seed() {\n  await Notes.createMany(3);\n}\n',
    );
    writeFileSync(
      join(app, "seeds/02_pinned.ts"),
      'import type { SeedContext } from "fw-a";\nexport async function seed({ models, env }: SeedContext) {\n  await models["Note"]!.create({ title: `pinned in ${env}`, done: true } as never);\n}\n',
    );
    db = await connect(env.DB_URL);
    await db.knex.schema.createTable("notes", (table) => {
      table.increments("id");
      table.string("title").notNullable();
      table.boolean("done").notNullable();
      modelTimestamps(table);
    });
  });
  after(async () => {
    await db?.close();
    rmSync(app, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  test("runs every seed in name order with the app's factories and models", async () => {
    const result = run("db:seed");
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /seeded 01_notes\.ts\nseeded 02_pinned\.ts/);
    const rows = await titles();
    assert.equal(rows.length, 4);
    assert.equal(rows[3], "pinned in development");
  });

  test("--file runs one seed; an unknown one is named with the seeds there", async () => {
    const one = run("db:seed", "--file", "02_pinned");
    assert.equal(one.status, 0, one.stderr);
    assert.equal((await titles()).length, 5);
    const unknown = run("db:seed", "--file", "03_users");
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /E_SEED_NOT_FOUND/);
    assert.match(unknown.stderr, /01_notes\.ts, 02_pinned\.ts/);
  });

  test("production is refused without --force", async () => {
    const production = spawnSync(
      process.execPath,
      ["--conditions=source", "--import", "tsx", main, "db:seed", "--root", app, "--file", "02_pinned"],
      {
        cwd: packageDir,
        encoding: "utf8",
        env: {
          ...env,
          APP_ENV: "production",
          SECRET_KEY: crypto.randomUUID(),
          BASE_URL: "https://notes.example.test",
        },
      },
    );
    assert.notEqual(production.status, 0);
    assert.match(production.stderr, /E_SEED_IN_PRODUCTION/);
    assert.match(production.stderr, /fw-a db:seed --force/);
    assert.equal((await titles()).length, 5);
  });

  test("NODE_ENV=production without APP_ENV is production too, as for start: refused without --force", async () => {
    const result = spawnSync(
      process.execPath,
      ["--conditions=source", "--import", "tsx", main, "db:seed", "--root", app, "--file", "02_pinned"],
      {
        cwd: packageDir,
        encoding: "utf8",
        env: {
          ...env,
          APP_ENV: "",
          NODE_ENV: "production",
          SECRET_KEY: randomBytes(32).toString("base64url"),
          BASE_URL: "https://notes.example.test",
        },
      },
    );
    assert.notEqual(result.status, 0, result.stdout);
    assert.match(result.stderr, /E_SEED_IN_PRODUCTION/);
    assert.equal((await titles()).length, 5);
  });
});
