import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { addView, initApp, skeletonFiles, viewClassName } from "../../src/cli/scaffold.js";

const dir = mkdtempSync(join(tmpdir(), "fwb-scaffold-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("fw-b scaffold", () => {
  test("skeletonFiles: every placeholder filled, fw-b as a file: dependency, folders marked", () => {
    const files = skeletonFiles("shop", "/opt/fw-b/", new Date("2031-05-06T07:08:09Z"));
    for (const [path, content] of Object.entries(files))
      assert.doesNotMatch(content, /\{\{/, `${path} has no placeholder left`);
    const pkg = JSON.parse(files["package.json"]!) as {
      name: string;
      type: string;
      dependencies: Record<string, string>;
    };
    assert.deepEqual([pkg.name, pkg.type, pkg.dependencies["fw-b"]], ["shop", "module", "file:/opt/fw-b"]);
    assert.equal(files["static/"] === undefined, true, "static/ holds a file, so needs no marker");
    assert.equal(files["data/"], "");
    // Stamped with the scaffold's time, so a migration made later sorts after it.
    assert.match(files["migrations/20310506070809_create_products.ts"]!, /createTable\("products"/);
    assert.match(files["lib/models.ts"]!, /defineModel<ProductRow>\("products"\)/);
    assert.ok(files[".gitignore"]);
    assert.match(files[".gitignore"]!, /^\.env$/m, "the secrets of .env stay out of git");
    assert.match(files["views/main.ts"]!, /@renderJson\nexport class Api extends FwB/);
    assert.match(files["templates/layouts/default.pug"]!, /each section in nav/);
  });

  test("initApp: names the app after its folder and links node_modules/fw-b to this package", () => {
    const root = join(dir, "My Tea Shop");
    const result = initApp(root);
    assert.ok(result.written.includes("app.ts"));
    assert.equal(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).name, "my-tea-shop");
    assert.equal(readlinkSync(join(root, "node_modules", "fw-b")), PACKAGE_ROOT.replace(/\/$/, ""));
    assert.ok(existsSync(join(root, "node_modules", ".bin", "fw-b")));
    writeFileSync(join(root, "views", "main.ts"), "// mine");
    const again = initApp(root);
    assert.deepEqual(again.written, []);
    assert.ok(again.skipped.includes("views/main.ts"));
    assert.equal(readFileSync(join(root, "views", "main.ts"), "utf8"), "// mine");
  });

  test("viewClassName: PascalCase of the last segment", () => {
    assert.equal(viewClassName("blog"), "Blog");
    assert.equal(viewClassName("blog-posts"), "BlogPosts");
    assert.equal(viewClassName("admin/user_accounts"), "UserAccounts");
  });

  test("addView: module and template, in sub-folders too; refusals say why", () => {
    const root = join(dir, "app");
    initApp(root);
    const result = addView(root, "admin/user_accounts");
    assert.deepEqual(result.written, [
      "views/admin/user_accounts.ts",
      "templates/admin/user_accounts/UserAccounts/index.pug",
    ]);
    assert.match(
      readFileSync(join(root, "views/admin/user_accounts.ts"), "utf8"),
      /export class UserAccounts extends FwB/,
    );
    assert.throws(() => addView(root, "admin/user_accounts"), {
      code: "E_VIEW_EXISTS",
      message: /views\/admin\/user_accounts\.ts already exists/,
    });
    for (const bad of ["", "9lives", "../up", "a//b", "a b", "x/"])
      assert.throws(() => addView(root, bad), { code: "E_INVALID_VIEW_NAME" }, bad);
    assert.throws(() => addView(join(dir, "nowhere"), "blog"), { code: "E_APP_NOT_FOUND" });
  });
});
