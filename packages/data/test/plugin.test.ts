/**
 * dataPlugin as a host would drive it: setup connects to the app's SQLite file, applies
 * migrations, imports lib/models.ts and binds its models; the middleware gives ctx.state.db and
 * turns constraint errors into 4xx; locals carry date, flash and pagination helpers; close ends it.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, test } from "node:test";
import Koa from "koa";
import type { Knex } from "knex";
import type { PluginContext } from "@fwkit/koa-host/plugin";
import { dataPlugin, type Model, type BaseRow } from "../src/index.js";
import { DB_STATE_KEY } from "../src/plugin-api.js";

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const dataIndex = pathToFileURL(join(import.meta.dirname, "..", "src", "index.ts")).href;

function appRoot(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "data-plugin-"));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const logged: string[] = [];
function pluginContext(root: string, extra: Record<string, unknown> = {}): PluginContext {
  const logger = { info: (_: unknown, msg: string) => logged.push(msg), warn: (msg: string) => logged.push(msg) };
  return {
    config: { env: "test", secretKey: "s", root, ...extra },
    logger,
    table: undefined,
  } as unknown as PluginContext;
}

const notesApp = {
  "lib/models.ts": `import { defineModel } from ${JSON.stringify(dataIndex)};
export const Note = defineModel("notes", { softDelete: true });
export const notLoaded = 42;
`,
  "migrations/20240101000000_create_notes.ts": `export async function up(knex) {
  await knex.schema.createTable("notes", (t) => {
    t.increments("id");
    t.string("slug").notNullable().unique();
    t.datetime("created_at", { precision: 3 }).notNullable();
    t.datetime("updated_at", { precision: 3 }).notNullable();
    t.datetime("deleted_at", { precision: 3 }).nullable();
  });
}
export async function down(knex) {
  await knex.schema.dropTable("notes");
}
`,
};

describe("dataPlugin", () => {
  test("connects, migrates, binds lib/models.ts exports and closes", async () => {
    const root = appRoot(notesApp);
    const plugin = dataPlugin({ migrate: true });
    await plugin.setup(pluginContext(root, { timezone: "Europe/Paris" }));
    try {
      assert.equal(plugin.database.dialect, "sqlite");
      assert.equal(plugin.settings.dbUrl, "sqlite:data/app.db");
      assert.deepEqual(Object.keys(plugin.models), ["Note"]);
      const Note = plugin.models["Note"] as Model<BaseRow & { slug: string }>;
      const note = await Note.create({ slug: "hello" });
      assert.ok(note.created_at instanceof Date);
      assert.ok(logged.includes("migrations applied"));

      const locals = plugin.locals({} as never);
      assert.equal(locals["timezone"], "Europe/Paris");
      assert.equal(
        (locals["formatDate"] as (d: Date, f: string) => string)(new Date("2024-05-01T12:00:00Z"), "HH:mm"),
        "14:00",
      );
      assert.equal(typeof locals["timeAgo"], "function");
      assert.equal(typeof locals["pagination_links"], "function");
      assert.deepEqual(locals["flash_messages"], []);
      assert.deepEqual(locals["errors"], {});
      assert.deepEqual(locals["old"], {});
    } finally {
      await plugin.close();
    }
    await assert.rejects(plugin.database.knex.raw("select 1"), "the pool is closed");
  });

  test("its middleware offers ctx.state.db and answers constraint errors with 409/400", async () => {
    const root = appRoot(notesApp);
    const plugin = dataPlugin({ migrate: true });
    await plugin.setup(pluginContext(root));
    const app = new Koa();
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        const { status = 500, message = "" } = error as { status?: number; message?: string };
        ctx.status = status;
        ctx.body = { status, message, code: (error as { code?: string }).code };
      }
    });
    for (const middleware of plugin.phases.request()) app.use(middleware);
    app.use(async (ctx) => {
      const knex = ctx.state[DB_STATE_KEY] as Knex;
      const now = new Date();
      await knex("notes").insert({ slug: String(ctx.query["slug"] ?? ""), created_at: now, updated_at: now });
      ctx.body = { ok: true };
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      assert.equal((await fetch(`${origin}/?slug=a`)).status, 200);
      const duplicate = await fetch(`${origin}/?slug=a`);
      assert.equal(duplicate.status, 409);
      const body = (await duplicate.json()) as { message: string; code: string };
      assert.equal(body.code, "E_UNIQUE_VIOLATION");
      assert.equal(body.message, "A notes row with this slug already exists. Choose another value.");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await plugin.close();
    }
  });

  test("explicit models and url win over discovery and config", async () => {
    const root = appRoot({});
    const { defineModel } = await import("../src/index.js");
    const Thing = defineModel("things");
    const plugin = dataPlugin({ url: "sqlite::memory:", models: { Thing, other: "x" } });
    await plugin.setup(pluginContext(root, { dbUrl: "sqlite:ignored.db" }));
    assert.equal(plugin.database.url, "sqlite::memory:");
    assert.deepEqual(Object.keys(plugin.models), ["Thing"]);
    assert.ok(Thing.bound);
    await plugin.close();
  });

  test("an unreachable database fails setup naming the masked URL", async () => {
    const plugin = dataPlugin();
    await assert.rejects(
      plugin.setup(pluginContext(appRoot({}), { dbUrl: "postgres://app:hunter2@127.0.0.1:1/app" })),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_DB_UNREACHABLE");
        assert.match(error.message, /app:\*\*\*\*@127\.0\.0\.1:1/);
        return true;
      },
    );
  });

  test("a broken lib/models.ts fails setup with E_MODELS_LOAD naming the file", async () => {
    const root = appRoot({ "lib/models.ts": "export const = ;\n" });
    const plugin = dataPlugin();
    await assert.rejects(plugin.setup(pluginContext(root)), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_MODELS_LOAD");
      assert.ok(error.message.includes(join(root, "lib", "models.ts")));
      return true;
    });
  });

  test("an unknown time zone fails setup", async () => {
    const plugin = dataPlugin();
    await assert.rejects(plugin.setup(pluginContext(appRoot({}), { timezone: "Moon/Base" })), {
      code: "E_BAD_TIMEZONE",
    });
  });
});
