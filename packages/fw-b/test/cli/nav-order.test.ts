// `fw-b :addview` put new menu entries before Home (order 0 for every view, and
// discovery order put `blog` before `main`). New views now come after the existing entries, in
// steps of 10, and `--order` places one where the user wants it.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { Context } from "koa";
import { buildRouteTable } from "routing-kernel";
import { conventions, FwB } from "../../src/base.js";
import { navTitle } from "../../src/decorators/index.js";
import { NavMenu } from "../../src/render/menu.js";
import { navOrders, nextNavOrder } from "../../src/cli/nav-order.js";
import { addView, initApp } from "../../src/cli/scaffold.js";

const dir = mkdtempSync(join(tmpdir(), "fw-b-nav-order-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The `@navTitle` line `:addview` wrote for a view. */
const navLine = (root: string, module: string) =>
  /@navTitle\(.*\)/.exec(readFileSync(join(root, "views", `${module}.ts`), "utf8"))?.[0];

describe(":addview places menu entries", () => {
  test("new views are appended after Home and after each other; --order places one", () => {
    const root = join(dir, "app");
    initApp(root);
    assert.deepEqual(navOrders(root), [0], "the scaffold's Home, order 0");
    addView(root, "blog");
    assert.equal(navLine(root, "blog"), '@navTitle("Blog", { order: 10 })');
    addView(root, "shop");
    assert.equal(navLine(root, "shop"), '@navTitle("Shop", { order: 20 })');
    addView(root, "about", { order: 5 });
    assert.equal(navLine(root, "about"), '@navTitle("About", { order: 5 })');
    assert.equal(nextNavOrder(root), 30);
    assert.throws(() => addView(root, "bad", { order: Number.NaN }), { code: "E_INVALID_NAV_TITLE" });
  });

  test("with those orders the menu reads Home, About, Blog, Shop whatever the module names", () => {
    @navTitle("Home")
    class Index extends FwB {
      index() {}
    }
    @navTitle("Blog", { order: 10 })
    class Blog extends FwB {
      index() {}
    }
    @navTitle("Shop", { order: 20 })
    class Shop extends FwB {
      index() {}
    }
    @navTitle("About", { order: 5 })
    class About extends FwB {
      index() {}
    }
    // Discovery is by module name: about, blog, main, shop.
    const table = buildRouteTable({
      conventions,
      modules: [
        { name: "about", exports: { About } },
        { name: "blog", exports: { Blog } },
        { name: "main", exports: { Index } },
        { name: "shop", exports: { Shop } },
      ],
    });
    const items = new NavMenu(table).forRequest({ path: "/", state: {} } as unknown as Context);
    assert.deepEqual(
      items.map((item) => item.title),
      ["Home", "About", "Blog", "Shop"],
    );
  });
});
