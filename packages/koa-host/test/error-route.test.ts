import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildRouteTable, defineConventions, RESPONSE_KIND_TAG, responseKindTag, routePath } from "routing-kernel";
import { errorRouteFinder } from "../src/error-route.js";
import { HostView } from "../src/view.js";

class View extends HostView {}
const conventions = defineConventions({ baseClass: View, trailingSlash: false });
const json = responseKindTag("json", "json");

class Shop extends View {
  index() {}
  item(id: string) {
    return id;
  }
  @routePath("route", "/special.deals") deals() {}
}
@json
class Api extends View {
  echo() {}
  users(id: string) {
    return id;
  }
}
class Mixed extends View {
  page() {}
  @json data() {}
}
const table = buildRouteTable({ conventions, modules: [{ name: "main", exports: { Shop, Api, Mixed } }] });

describe("errorRouteFinder", () => {
  test("finds the route of a path, static segments first", () => {
    const at = errorRouteFinder(table);
    assert.equal(at("/shop")?.id, "Shop.index");
    assert.equal(at("/shop/item/4")?.id, "Shop.item");
    assert.equal(at("/shop/special.deals")?.id, "Shop.deals");
    assert.equal(at("/api/users/%41")?.id, "Api.users");
  });

  test("a path that matches nothing takes the kind of the routes under its nearest ancestor, when they agree", () => {
    const at = errorRouteFinder(table);
    assert.equal(at("/api/nothing")?.tags[RESPONSE_KIND_TAG], "json");
    assert.equal(at("/api/users/4/5")?.tags[RESPONSE_KIND_TAG], "json");
    assert.equal(at("/shop/specialxdeals")?.className, "Shop");
    assert.equal(at("/mixed/nothing"), undefined, "HTML and JSON routes under /mixed: no kind is implied");
    assert.equal(at("/nothing"), undefined, "the root implies nothing");
  });

  test("honours a base path", () => {
    const at = errorRouteFinder(table, "/app");
    assert.equal(at("/app/shop")?.id, "Shop.index");
    assert.equal(at("/shop"), undefined);
  });
});
