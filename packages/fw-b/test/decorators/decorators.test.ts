import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildRouteTable } from "routing-kernel";
import { conventions, FwB } from "../../src/base.js";
import { RESPONSE_KIND_TAG } from "routing-kernel";
import { NAV_CLASS, NAV_ITEM } from "../../src/tags.js";
import { navTitle, renderHtml, renderJson, renderXml, route } from "../../src/decorators/index.js";

const table = (exports: Record<string, unknown>) =>
  buildRouteTable({ conventions, modules: [{ name: "main", exports }] });

describe("fw-b decorators", () => {
  test("@renderJson / @renderXml bare or called, on a class or a method; @renderHtml switches back", () => {
    @renderJson
    class Api extends FwB {
      index() {}
      @renderXml feed() {}
      @renderHtml() page() {}
    }
    class Mixed extends FwB {
      @renderJson() data() {}
      @renderXml() xml() {}
      plain() {}
    }
    const kinds = Object.fromEntries(table({ Api, Mixed }).routes.map((r) => [r.id, r.tags[RESPONSE_KIND_TAG]]));
    assert.deepEqual(kinds, {
      "Api.index": "json",
      "Api.feed": "xml",
      "Api.page": "html",
      "Mixed.data": "json",
      "Mixed.xml": "xml",
      "Mixed.plain": undefined,
    });
  });

  test("@route on a class replaces the prefix for every method; on a method it replaces the segment", () => {
    @route("/shop/:shopId")
    class Shop extends FwB {
      index(shopId: string) {
        return shopId;
      }
      item(shopId: string, id: string) {
        return shopId + id;
      }
      @route("/special") @route("/offer") offer(shopId: string) {
        return shopId;
      }
    }
    const paths = table({ Shop }).routes.map((r) => [r.id, r.patterns]);
    assert.deepEqual(paths, [
      ["Shop.index", ["/shop/:shopId"]],
      ["Shop.item", ["/shop/:shopId/item/:id"]],
      ["Shop.offer", ["/shop/:shopId/special", "/shop/:shopId/offer"]],
    ]);
  });

  test("@navTitle records class and method entries under separate tags", () => {
    const visible = () => true;
    @navTitle("Blog", { order: 2 })
    class Blog extends FwB {
      @navTitle("Archive", { visible }) archive() {}
      index() {}
    }
    const [archive, index] = table({ Blog }).routes;
    assert.deepEqual(archive!.tags[NAV_CLASS], { title: "Blog", order: 2 });
    assert.deepEqual(archive!.tags[NAV_ITEM], { title: "Archive", order: 0, visible });
    assert.equal(index!.tags[NAV_ITEM], undefined);
  });

  test("@navTitle rejects a bad title or options when the class is defined", () => {
    assert.throws(
      () => {
        @navTitle("  ")
        class Bad extends FwB {}
        return Bad;
      },
      { code: "E_INVALID_NAV_TITLE", message: /class Bad.*non-empty/ },
    );
    assert.throws(
      () => {
        class Bad extends FwB {
          @navTitle("x", { order: Number.NaN }) m() {}
        }
        return Bad;
      },
      { code: "E_INVALID_NAV_TITLE", message: /m\(\).*order/ },
    );
    assert.throws(
      () => {
        class Bad extends FwB {
          @navTitle("x", { visible: "yes" as never }) m() {}
        }
        return Bad;
      },
      { code: "E_INVALID_NAV_TITLE", message: /visible/ },
    );
  });

  test("an invalid route path fails when the class is defined", () => {
    assert.throws(
      () => {
        class Bad extends FwB {
          @route("/a b") m() {}
        }
        return Bad;
      },
      { code: "E_INVALID_ROUTE_PATH" },
    );
  });
});
