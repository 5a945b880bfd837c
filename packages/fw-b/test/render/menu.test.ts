import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Context } from "koa";
import { buildRouteTable } from "routing-kernel";
import { conventions, FwB } from "../../src/base.js";
import { navTitle, route } from "../../src/decorators/index.js";
import { request } from "../../src/request.js";
import { NavMenu, type MenuItem } from "../../src/render/menu.js";

const ctx = (path: string, user?: string) => ({ path, state: user ? { user } : {} }) as unknown as Context;
const table = (exports: Record<string, unknown>) =>
  buildRouteTable({ conventions, modules: [{ name: "main", exports }] });
const titles = (items: readonly MenuItem[]): unknown =>
  items.map((item) => (item.children.length ? [item.title, titles(item.children)] : item.title));

@navTitle("Home")
class Index extends FwB {
  index() {}
  @navTitle("About", { order: 5 })
  about() {}
}
@navTitle("Blog", { order: 1 })
class Blog extends FwB {
  index() {}
  @navTitle("Archive", { order: 2 })
  archive() {}
  @navTitle("Latest", { order: 1 })
  latest() {}
  show(id: string) {
    return id;
  }
}
@navTitle("Account", { order: 3, visible: (c) => Boolean(c.state["user"]) })
@route("/me")
class Account extends FwB {
  @navTitle("Profile")
  profile() {}
  @navTitle("Admin", { visible: (c) => c.state["user"] === "root" })
  admin() {}
}
class Loose extends FwB {
  @navTitle("Help", { order: 2 })
  help() {}
  hidden() {}
}

describe("NavMenu", () => {
  const menu = new NavMenu(table({ Index, Blog, Account, Loose }));

  test("sections with their entries, sorted by order then declaration", () => {
    assert.deepEqual(titles(menu.forRequest(ctx("/"))), [["Home", ["About"]], ["Blog", ["Latest", "Archive"]], "Help"]);
  });

  test("links: a section's index, else its first entry; class route prefixes apply", () => {
    const items = menu.forRequest(ctx("/", "ada"));
    const urls = items.map((i) => [i.url, i.children.map((c) => c.url)]);
    assert.deepEqual(urls, [
      ["/", ["/about"]],
      ["/blog", ["/blog/latest", "/blog/archive"]],
      ["/loose/help", []],
      ["/me/profile", ["/me/profile"]],
    ]);
  });

  test("visibility predicates are applied per request", () => {
    assert.deepEqual(titles(menu.forRequest(ctx("/", "ada"))), [
      ["Home", ["About"]],
      ["Blog", ["Latest", "Archive"]],
      "Help",
      ["Account", ["Profile"]],
    ]);
    assert.deepEqual(titles(menu.forRequest(ctx("/", "root"))), [
      ["Home", ["About"]],
      ["Blog", ["Latest", "Archive"]],
      "Help",
      ["Account", ["Profile", "Admin"]],
    ]);
  });

  test("active entries and sections follow the request path", () => {
    const items = menu.forRequest(ctx("/blog/archive"));
    const blog = items.find((i) => i.title === "Blog")!;
    assert.equal(blog.active, true);
    assert.deepEqual(
      blog.children.map((c) => c.active),
      [false, true],
    );
    assert.equal(items.find((i) => i.title === "Home")!.active, false);
    assert.equal(menu.forRequest(ctx("/blog/show/3")).find((i) => i.title === "Blog")!.active, true);
    assert.equal(menu.forRequest(ctx("/")).find((i) => i.title === "Home")!.active, true);
  });

  test("a base path prefixes every link", () => {
    const mounted = new NavMenu(table({ Blog }), "/app");
    assert.equal(mounted.forRequest(ctx("/app/blog")).at(0)!.url, "/app/blog");
    assert.equal(mounted.forRequest(ctx("/app/blog")).at(0)!.active, true);
  });

  test("no titles: an empty menu", () => {
    class Plain extends FwB {
      index() {}
    }
    const empty = new NavMenu(table({ Plain }));
    assert.equal(empty.empty, true);
    assert.deepEqual(empty.forRequest(ctx("/")), []);
  });

  test("an entry on a route that needs parameters or is not GET is a start-up error", () => {
    class NeedsId extends FwB {
      @navTitle("Show")
      show(id: string) {
        return id;
      }
    }
    assert.throws(() => new NavMenu(table({ NeedsId })), {
      code: "E_NAV_UNREACHABLE",
      message: /NeedsId\.show\(\).*parameters/,
    });
    class PostOnly extends FwB {
      @navTitle("Send")
      @request.post
      send() {}
    }
    assert.throws(() => new NavMenu(table({ PostOnly })), { code: "E_NAV_UNREACHABLE", message: /not GET/ });
    @navTitle("Things")
    class OnlyParams extends FwB {
      get(id: string) {
        return id;
      }
    }
    assert.throws(() => new NavMenu(table({ OnlyParams })), { code: "E_NAV_UNREACHABLE", message: /class OnlyParams/ });
  });
});
