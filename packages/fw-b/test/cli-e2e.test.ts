// As a new user would: `fw-b :init` in an empty folder outside the workspace, the migration
// commands on its SQLite database, `fw-b :serve`, real requests (a Pug page listing rows from the
// database, with the menu; JSON API, XML, an interceptor), reload on change, SIGTERM.
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const workspace = join(packageDir, "..", "..");
const bin = join(packageDir, "bin", "fw-b.js");
const tsc = join(workspace, "node_modules", "typescript", "bin", "tsc");

/** Runs the built CLI in `cwd` and returns its exit code and output. */
function fwb(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function eventually<T>(what: string, fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

const SHOP_VIEW = (greeting: string) => `import { FwB } from "fw-b";
import { navTitle, renderXml } from "fw-b/decorators";

@navTitle("Shop", { order: 1 })
export class Shop extends FwB {
  beforeRequest(name: string, ...args: unknown[]) {
    if (this.ctx.query["closed"] === "1") return \`closed (\${name} \${args.join(",")})\`;
    return undefined;
  }
  index() {
    return { title: "Shop", greeting: "${greeting}" };
  }
  item(id: string) {
    return \`item \${id}\`;
  }
  @navTitle("Feed")
  @renderXml
  feed() {
    return { shop: "Tea & more", open: true, items: [1, 2] };
  }
}
`;

describe("fw-b CLI end to end", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "fwb-e2e-")));
  const app = join(dir, "my-shop");
  let server: ChildProcess | undefined;
  let url = "";
  let output = "";

  before(() => {
    for (const name of [
      "routing-kernel",
      "koa-host",
      "jobs",
      "cli",
      "security",
      "data",
      "services",
      "observability",
      "app-kit",
      "fw-b",
    ]) {
      const built = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
        cwd: join(workspace, "packages", name),
        encoding: "utf8",
      });
      assert.equal(built.status, 0, `build of ${name} failed:\n${built.stdout}${built.stderr}`);
    }
  });
  after(() => {
    if (server && server.exitCode === null) server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  test(":init writes a TypeScript skeleton, links fw-b, and never overwrites", () => {
    const first = fwb(dir, ":init", "--root", app);
    assert.equal(first.status, 0, first.stderr);
    for (const file of [
      "app.ts",
      "package.json",
      "tsconfig.json",
      "lib/config.ts",
      "lib/models.ts",
      "run/scripts.ts",
      "views/main.ts",
      "templates/layouts/default.pug",
      "templates/main/Index/index.pug",
      "static",
      "data",
      "migrations",
      ".gitignore",
      "README.md",
    ]) {
      assert.ok(existsSync(join(app, file)), `${file} exists`);
      assert.match(first.stdout, new RegExp(`create  ${file.replace(".", "\\.")}`));
    }
    const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
      name: string;
      dependencies: Record<string, string>;
    };
    assert.equal(pkg.name, "my-shop");
    assert.equal(pkg.dependencies["fw-b"], `file:${packageDir.replace(/\/$/, "")}`);
    assert.equal(realpathSync(join(app, "node_modules", "fw-b")), realpathSync(packageDir));
    assert.match(
      readFileSync(join(app, "app.ts"), "utf8"),
      /export const app = defineApp\(\{ root: import\.meta\.dirname \}\)/,
    );

    writeFileSync(join(app, "README.md"), "mine");
    const again = fwb(dir, ":init", "--root", app);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /skip {4}README\.md \(exists\)/);
    assert.equal(readFileSync(join(app, "README.md"), "utf8"), "mine");
  });

  test(":addview writes a view and its template; a second time fails and says why", () => {
    const added = fwb(app, ":addview", "shop");
    assert.equal(added.status, 0, added.stderr);
    assert.match(added.stdout, /create {2}views\/shop\.ts/);
    assert.match(added.stdout, /create {2}templates\/shop\/Shop\/index\.pug/);
    const again = fwb(app, ":addview", "shop");
    assert.equal(again.status, 1);
    assert.match(again.stderr, /E_VIEW_EXISTS: views\/shop\.ts already exists/);
    const bad = fwb(app, ":addview", "../evil");
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /E_INVALID_VIEW_NAME/);
    // Now the user edits the generated view: an interceptor, an XML feed, a page with a greeting.
    writeFileSync(join(app, "views", "shop.ts"), SHOP_VIEW("Welcome"));
    writeFileSync(
      join(app, "templates", "shop", "Shop", "index.pug"),
      "extends /layouts/default\nblock content\n  h1= title\n  p.greeting= greeting\n",
    );
  });

  test(":migrate builds the SQLite database from migrations/; :make-migration, :migrations, :rollback", () => {
    const migrated = fwb(app, ":migrate");
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.match(migrated.stdout, /applied \d{14}_create_products$/m);
    assert.ok(existsSync(join(app, "data", "app.db")), "the SQLite file exists");
    assert.match(fwb(app, ":migrate").stdout, /Nothing to migrate \(sqlite:data\/app\.db\)/);
    assert.match(fwb(app, "products:count").stdout, /2 products \(development\)/);

    const made = fwb(app, ":make-migration", "add_oolong");
    assert.equal(made.status, 0, made.stderr);
    const file = /created (\S+_add_oolong\.ts)/.exec(made.stdout)?.[1];
    assert.ok(file && existsSync(file), made.stdout);
    assert.match(readFileSync(file, "utf8"), /import type \{ Knex \} from "fw-b";/);
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
    assert.match(fwb(app, ":migrations").stdout, /\[x\] \d{14}_create_products(\.ts)?\n\[ \] \d+_add_oolong(\.ts)?$/m);
    assert.match(fwb(app, ":migrate").stdout, /applied \d+_add_oolong$/m);
    assert.match(fwb(app, "products:count").stdout, /3 products/);
    assert.match(fwb(app, ":rollback").stdout, /rolled back \d+_add_oolong(\.ts)?$/m);
    assert.match(fwb(app, ":migrations").stdout, /\[ \] \d+_add_oolong(\.ts)?$/m);
    // Building the app in development applies pending migrations first (autoMigrate).
    assert.match(fwb(app, "products:count").stdout, /3 products/);
    assert.match(fwb(app, ":migrations").stdout, /\[x\] \d+_add_oolong(\.ts)?$/m);
    const bad = fwb(app, ":make-migration", "../evil");
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /E_BAD_MIGRATION_NAME/);
  });

  test(":maintenance on|off needs contrib.maintenance's table; its migration runs with the app's", () => {
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

  test(":routes lists the table, also as JSON; outside an app it fails naming the problem", () => {
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

  test(":serve serves the app: Pug page with the menu, JSON API, XML, an interceptor; it reloads on change", async () => {
    const port = await freePort();
    server = spawn(process.execPath, [bin, ":serve", "--port", String(port)], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    url = `http://127.0.0.1:${port}`;
    await eventually(`the server (output so far: ${output})`, async () =>
      output.includes("Serving") ? true : undefined,
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
    await eventually("the reloaded view", async () => {
      const text = await (await fetch(`${url}/shop`)).text();
      return text.includes("Welcome back") ? true : undefined;
    });
  });

  test("SIGTERM stops the server cleanly", async () => {
    assert.ok(server, "the server runs");
    const exited = new Promise<number | null>((resolve) => server!.once("exit", (code) => resolve(code)));
    server!.kill("SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("timeout"), 10_000)),
    ]);
    assert.equal(code, 0, `exit: ${String(code)}\n${output}`);
    await assert.rejects(fetch(`${url}/`), "nothing listens any more");
  });
});
