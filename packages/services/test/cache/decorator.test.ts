import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildRouteTable, defineConventions } from "routing-kernel";
import { cacheResponse, cacheTagOf, makeCacheDecorator } from "../../src/cache/decorator.js";

class Base {}
const conventions = defineConventions({ baseClass: Base, trailingSlash: false });

describe("cacheResponse decorator", () => {
  test("tags methods and classes; a method tag overrides the class tag", () => {
    @cacheResponse(60)
    class Catalog extends Base {
      index() {}
      @cacheResponse(5)
      item(id: string) {
        return id;
      }
    }
    class Plain extends Base {
      @cacheResponse(10)
      page() {}
      other() {}
    }
    const table = buildRouteTable({ conventions, modules: [{ name: "main", exports: { Catalog, Plain } }] });
    const seconds = Object.fromEntries(table.routes.map((route) => [route.id, cacheTagOf(route)?.seconds]));
    assert.deepEqual(seconds, { "Catalog.index": 60, "Catalog.item": 5, "Plain.page": 10, "Plain.other": undefined });
  });

  test("a TTL that is not positive is refused when decorating, naming the framework's decorator", () => {
    const cache = makeCacheDecorator("response.cache");
    assert.throws(() => cache(0), { code: "E_CACHE_TTL_INVALID", message: /@response\.cache\(seconds\)/ });
    assert.throws(() => cacheResponse(Number.NaN), { code: "E_CACHE_TTL_INVALID" });
  });
});
