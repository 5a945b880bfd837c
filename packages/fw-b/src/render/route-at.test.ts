import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildRouteTable } from "routing-kernel";
import { conventions, FwB } from "../base.js";
import { route } from "../decorators/index.js";
import { routeAtPath } from "./route-at.js";

class Shop extends FwB {
  index() {}
  item(id: string) {
    return id;
  }
  @route("/special.deals") deals() {}
}
const table = buildRouteTable({ conventions, modules: [{ name: "main", exports: { Shop } }] });

describe("routeAtPath", () => {
  test("finds the route of a path, static segments first", () => {
    const at = routeAtPath(table);
    assert.equal(at("/shop")?.id, "Shop.index");
    assert.equal(at("/shop/item/4")?.id, "Shop.item");
    assert.equal(at("/shop/special.deals")?.id, "Shop.deals");
    assert.equal(at("/shop/specialxdeals"), undefined);
    assert.equal(at("/shop/item/4/5"), undefined);
  });

  test("honours a base path", () => {
    const at = routeAtPath(table, "/app");
    assert.equal(at("/app/shop")?.id, "Shop.index");
    assert.equal(at("/shop"), undefined);
  });
});
