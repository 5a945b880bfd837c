import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { buildRouteTable, defineConventions, routePath } from "routing-kernel";
import { augmentedModule, ROUTE_TYPES_FILE, routeTypesSource } from "../../src/route-types/generate.js";
import { refreshRouteTypes, writeRouteTypes } from "../../src/route-types/write.js";

class View {}

class Index extends View {
  index() {}
}
class Blog extends View {
  index() {}
  show(slug: string) {
    return slug;
  }
  comments(id: string, page = "1") {
    return id + page;
  }
  @routePath("route", "/archive")
  @routePath("route", "/archive/:year")
  archive(year?: string) {
    return year;
  }
}
// The same class name in another module: urlFor("Shared.index") is ambiguous there, so it is left out.
const sharedClass = (prefix: string) => {
  @routePath("route", prefix)
  class Shared extends View {
    index() {}
  }
  return Shared;
};

const conventions = defineConventions({ baseClass: View, trailingSlash: false });
const table = buildRouteTable({
  conventions,
  modules: [
    { name: "main", exports: { Index, Blog, Shared: sharedClass("/one") } },
    { name: "other", exports: { Shared: sharedClass("/two") } },
  ],
});

describe("route types: the generated declaration", () => {
  const source = routeTypesSource(table, "fw-x");

  test("names every route with its required and optional parameters, named and positional", () => {
    assert.match(source, /^import type \{ RouteParamValue \} from "fw-x";$/m);
    assert.match(source, /^declare module "fw-x" \{$/m);
    assert.match(source, /^ {4}"Blog\.show": \{ slug: RouteParamValue \};$/m);
    assert.match(source, /^ {4}"Blog\.comments": \{ id: RouteParamValue; page\?: RouteParamValue \};$/m);
    assert.match(source, /^ {4}"Blog\.comments": \[id: RouteParamValue, page\?: RouteParamValue\];$/m);
    // Two route decorators, one without the parameter: the parameter is optional.
    assert.match(source, /^ {4}"Blog\.archive": \{ year\?: RouteParamValue \};$/m);
    // "Class" alone names the index method.
    assert.match(source, /^ {4}"Blog": \{\};$/m);
    assert.match(source, /^ {4}"Index\.index": \{\};$/m);
  });

  test("leaves out names that several view modules share (urlFor refuses them)", () => {
    assert.doesNotMatch(source, /"Shared/);
  });

  test("the augmented module is read back from the file", () => {
    assert.equal(augmentedModule(source), "fw-x");
    assert.equal(augmentedModule("// nothing here"), undefined);
  });
});

describe("route types: writing and the development server's refresh", () => {
  const root = mkdtempSync(join(tmpdir(), "route-types-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const file = join(root, ROUTE_TYPES_FILE);

  test("refresh writes nothing into an app that never generated the file", () => {
    assert.equal(refreshRouteTypes(root, table), undefined);
    assert.equal(existsSync(file), false);
  });

  test("write creates types/routes.d.ts, and leaves it untouched when nothing changed", () => {
    assert.equal(writeRouteTypes(root, table, "fw-y").changed, true);
    assert.equal(readFileSync(file, "utf8"), routeTypesSource(table, "fw-y"));
    const old = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(file, old, old);
    assert.equal(writeRouteTypes(root, table, "fw-y").changed, false);
    assert.equal(Math.round(statSync(file).mtimeMs), old.getTime());
  });

  test("refresh rewrites a stale file for the framework it names", () => {
    mkdirSync(join(root, "types"), { recursive: true });
    writeFileSync(
      file,
      'import type { RouteParamValue } from "fw-y";\ndeclare module "fw-y" {\n  interface RouteParams {}\n}\n',
    );
    const result = refreshRouteTypes(root, table);
    assert.equal(result?.changed, true);
    assert.equal(readFileSync(file, "utf8"), routeTypesSource(table, "fw-y"));
  });
});
