// As a new user would: `fw-b :init` in an empty folder outside the workspace, `:addview`, the
// migration commands on its SQLite database. `:maintenance`, `:routes` and serving the app are
// cli-serve-e2e.test.ts (smaller files; each test's timeout comes from its work, support/cli-e2e.ts).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { BUILD_TIMEOUT, buildStalePackages, cliRuns, fwb, packageDir, SHOP_VIEW } from "./support/cli-e2e.js";

describe("fw-b CLI end to end", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "fwb-e2e-")));
  const app = join(dir, "my-shop");

  // Builds what is older than its sources (npm test has built everything already).
  before(buildStalePackages, BUILD_TIMEOUT);
  after(() => rmSync(dir, { recursive: true, force: true }));

  test(":init writes a TypeScript skeleton, links fw-b, and never overwrites", cliRuns(3), () => {
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

  test(":addview writes a view and its template; a second time fails and says why", cliRuns(4), () => {
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

  test(
    ":migrate builds the SQLite database from migrations/; :make-migration, :migrations, :rollback",
    cliRuns(13),
    () => {
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
      assert.match(
        fwb(app, ":migrations").stdout,
        /\[x\] \d{14}_create_products(\.ts)?\n\[ \] \d+_add_oolong(\.ts)?$/m,
      );
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
    },
  );
});
