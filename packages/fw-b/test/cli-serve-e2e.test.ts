// As a new user would: an app made by `fw-b :init` outside the workspace (a shop view, a migration
// of its own), then `:maintenance` (contrib's table migrated with the app's), `:routes`, and
// `fw-b :serve`: real requests (a Pug page listing rows from
// the database, with the menu; JSON API, XML, an interceptor), maintenance switched by another
// process, reload on change, SIGTERM. The commands themselves are cli-e2e.test.ts.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  BUILD_TIMEOUT,
  bin,
  buildStalePackages,
  CLI_RUN_MS,
  cliRuns,
  eventually,
  freePort,
  fwb,
  SERVE_MS,
  SHOP_VIEW,
} from "./support/cli-e2e.js";

/** The CLI runs that make the app below. */
const SETUP_RUNS = 4;

/** Makes the shop the commands' test ends with: a shop view and a third product. */
function makeShop(dir: string): string {
  const app = join(dir, "my-shop");
  const run = (...args: string[]) => {
    const result = fwb(args[0] === ":init" ? dir : app, ...args);
    assert.equal(result.status, 0, `fw-b ${args.join(" ")}:\n${result.stdout}${result.stderr}`);
    return result.stdout;
  };
  run(":init", "--root", app);
  run(":addview", "shop");
  writeFileSync(join(app, "views", "shop.ts"), SHOP_VIEW("Welcome"));
  writeFileSync(
    join(app, "templates", "shop", "Shop", "index.pug"),
    "extends /layouts/default\nblock content\n  h1= title\n  p.greeting= greeting\n",
  );
  const file = /created (\S+_add_oolong\.ts)/.exec(run(":make-migration", "add_oolong"))?.[1];
  assert.ok(file, "the migration was made");
  writeFileSync(
    file,
    `import type { Knex } from "fw-b";
export async function up(knex: Knex): Promise<void> {
  const now = new Date();
  await knex("products").insert({ name: "Oolong", price: 6, created_at: now, updated_at: now });
}
export async function down(knex: Knex): Promise<void> {
  await knex("products").where({ name: "Oolong" }).delete();
}
`,
  );
  run(":migrate");
  return app;
}

describe("fw-b :serve end to end", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "fwb-serve-e2e-")));
  let app = "";
  let server: ChildProcess | undefined;
  let url = "";
  let output = "";

  before(buildStalePackages, BUILD_TIMEOUT);
  before(() => {
    app = makeShop(dir);
  }, cliRuns(SETUP_RUNS));
  after(() => {
    if (server && server.exitCode === null) server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  test(":maintenance on|off needs contrib.maintenance's table; its migration runs with the app's", cliRuns(5), () => {
    const configFile = join(app, "lib", "config.ts");
    writeFileSync(
      configFile,
      readFileSync(configFile, "utf8").replace(
        'dbUrl: "sqlite:data/app.db",',
        'dbUrl: "sqlite:data/app.db",\n  contrib: { maintenance: true },',
      ),
    );
    assert.match(fwb(app, ":migrations").stdout, /\[ \] fw-b\/contrib\/maintenance\/\d+_create_fwb_settings/);
    assert.match(fwb(app, ":migrate").stdout, /applied fw-b\/contrib\/maintenance\/\d+_create_fwb_settings/);
    const bad = fwb(app, ":maintenance", "maybe");
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /E_MAINTENANCE_ARGUMENT/);
    assert.match(fwb(app, ":maintenance", "off").stdout, /Maintenance is off/);
  });

  test(":routes lists the table, also as JSON; outside an app it fails naming the problem", cliRuns(5), () => {
    const listed = fwb(app, ":routes");
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, /GET\s+\/shop\/feed\s+shop:Shop\.feed\s+xml/);
    const json = JSON.parse(fwb(app, ":routes", "--json").stdout) as Array<{
      handler: string;
      path: string;
      kind: string;
    }>;
    assert.deepEqual(
      json.find((r) => r.handler === "Api.index"),
      { verbs: ["GET"], path: "/api", handler: "Api.index", module: "main", kind: "json" },
    );
    const outside = fwb(dir, ":routes");
    assert.equal(outside.status, 1);
    assert.match(outside.stderr, /E_APP_NOT_FOUND/);
    const unknown = fwb(app, ":frobnicate");
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /Unknown command ":frobnicate": fw-b --help lists the commands\./);
  });

  test(":serve serves the app: Pug page with the menu, JSON API, XML, an interceptor; it reloads on change", {
    // The server's start and its reload after the edit, and two CLI runs (maintenance on and off).
    timeout: 2 * SERVE_MS + 2 * CLI_RUN_MS,
  }, async () => {
    const port = await freePort();
    server = spawn(process.execPath, [bin, ":serve", "--port", String(port)], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    url = `http://127.0.0.1:${port}`;
    await eventually("the server", async () => (output.includes("Serving") ? true : undefined), SERVE_MS).catch(
      (error: Error) => assert.fail(`${error.message}; output so far: ${output}`),
    );

    const home = await fetch(`${url}/`);
    assert.equal(home.status, 200);
    const html = await home.text();
    assert.match(html, /<h1>my-shop<\/h1>/);
    assert.match(
      html,
      /<nav class="fwb-nav"[^>]*><ul><li class="active"><a href="\/" aria-current="page">Home<\/a><\/li><li><a href="\/shop">Shop<\/a><ul><li><a href="\/shop\/feed">Feed<\/a><\/li><\/ul><\/li><\/ul><\/nav>/,
    );

    assert.match(
      html,
      /<li><a href="\/api\/1">Green tea<\/a> \(4\.5\)<\/li><li><a href="\/api\/2">Black tea<\/a> \(3\.9\)<\/li><li><a href="\/api\/\d+">Oolong<\/a> \(6\)<\/li>/,
      "rows from SQLite",
    );

    // Another process (the CLI) switches maintenance on: the running server answers 503 within a second.
    assert.match(fwb(app, ":maintenance", "on").stdout, /Maintenance is on/);
    const down = await eventually("the maintenance page", async () => {
      const res = await fetch(`${url}/`);
      return res.status === 503 ? res : undefined;
    });
    assert.equal(down.headers.get("retry-after"), "600");
    assert.match(await down.text(), /Down for maintenance/);
    fwb(app, ":maintenance", "off");
    await eventually("the site open again", async () => ((await fetch(`${url}/`)).status === 200 ? true : undefined));

    const shop = await (await fetch(`${url}/shop`)).text();
    assert.match(shop, /<p class="greeting">Welcome<\/p>/);

    const api = await fetch(`${url}/api`);
    assert.equal(api.headers.get("content-type"), "application/json; charset=utf-8");
    const body = (await api.json()) as { products: Array<{ name: string }> };
    assert.equal(body.products[0]!.name, "Green tea");
    const missing = await fetch(`${url}/api/99`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: { status: 404, message: "There is no product 99." } });

    const feed = await fetch(`${url}/shop/feed`);
    assert.equal(feed.headers.get("content-type"), "application/xml; charset=utf-8");
    assert.equal(
      await feed.text(),
      '<?xml version="1.0" encoding="UTF-8"?>\n<response><shop>Tea &amp; more</shop><open>true</open><items><item>1</item><item>2</item></items></response>',
    );

    assert.equal(await (await fetch(`${url}/shop/item/7`)).text(), "item 7");
    assert.equal(await (await fetch(`${url}/shop/item/7?closed=1`)).text(), "closed (item 7)");

    writeFileSync(join(app, "views", "shop.ts"), SHOP_VIEW("Welcome back"));
    await eventually(
      "the reloaded view",
      async () => {
        const text = await (await fetch(`${url}/shop`)).text();
        return text.includes("Welcome back") ? true : undefined;
      },
      SERVE_MS,
    );
  });

  test("SIGTERM stops the server cleanly", async () => {
    assert.ok(server, "the server runs");
    const exited = new Promise<number | null>((resolve) => server!.once("exit", (code) => resolve(code)));
    server!.kill("SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("timeout"), CLI_RUN_MS)),
    ]);
    assert.equal(code, 0, `exit: ${String(code)}\n${output}`);
    await assert.rejects(fetch(`${url}/`), "nothing listens any more");
  });
});
