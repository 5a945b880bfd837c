import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { buildRouteTable } from "../src/build.js";
import { defineConventions, SPECIAL_VERBS } from "../src/conventions.js";
import { baseMemberNames } from "../src/discovery.js";
import { kebabCase } from "../src/naming.js";
import { codeOf, entriesOf, request, tableOf, View } from "./helpers.js";

describe("static segments before parameters", () => {
  test("whatever the declaration order", () => {
    class Blog extends View {
      show(id: string) {
        return id;
      }
      get(id: string) {
        return id;
      }
      index() {}
      latest() {}
      @request.route("/show/new")
      fresh() {}
    }
    for (const slash of [false, true]) {
      const patterns = tableOf({ Blog }, slash).entries.map((e) => e.pattern);
      const before = (a: string, b: string) => patterns.indexOf(a) < patterns.indexOf(b);
      const s = slash ? "/" : "";
      assert.ok(before(`/blog/latest${s}`, `/blog/:id${s}`), patterns.join(" "));
      assert.ok(before("/blog/show/new", `/blog/show/:id${s}`), patterns.join(" "));
    }
  });

  // Regression: with /items (index) in between, /items/:id used to stay before /items/latest.
  test("issue: a parameter route declared before index and a static sibling", () => {
    class Items extends View {
      get(id: string) {
        return id;
      }
      index() {}
      latest() {}
    }
    const patterns = tableOf({ Items }).entries.map((e) => e.pattern);
    assert.ok(patterns.indexOf("/items/latest") < patterns.indexOf("/items/:id"), patterns.join(" "));
  });

  test("otherwise declaration order is kept", () => {
    class Pages extends View {
      b() {}
      a() {}
      c() {}
    }
    assert.deepEqual(entriesOf(tableOf({ Pages })), [
      ["GET", "/pages/b"],
      ["GET", "/pages/a"],
      ["GET", "/pages/c"],
    ]);
  });
});

describe("conflicts", () => {
  test("same verb and same pattern shape: a startup error naming both handlers", () => {
    class Blog extends View {
      show(id: string) {
        return id;
      }
      @request.route("/show/:slug")
      bySlug(slug: string) {
        return slug;
      }
    }
    const error = codeOf(() => tableOf({ Blog }));
    assert.equal(error.code, "E_ROUTE_CONFLICT");
    assert.match(error.message, /GET \/blog\/show\/:slug/);
    assert.match(error.message, /Blog\.show\(\) in views\/main/);
    assert.match(error.message, /Blog\.bySlug\(\) in views\/main/);
  });

  test("across modules, naming each module", () => {
    class Blog extends View {
      index() {}
    }
    class Other extends View {
      @request.route("/blog")
      index() {}
    }
    @request.route("/")
    class Root extends View {
      @request.route("/blog")
      x() {}
    }
    const conventions = defineConventions({ baseClass: View, trailingSlash: false });
    const error = codeOf(() =>
      buildRouteTable({
        conventions,
        modules: [
          { name: "a", exports: { Blog } },
          { name: "b/c", exports: { Root, Other } },
        ],
      }),
    );
    assert.equal(error.code, "E_ROUTE_CONFLICT");
    assert.match(error.message, /Blog\.index\(\) in views\/a/);
    assert.match(error.message, /Root\.x\(\) in views\/b\/c/);
  });

  test("index and get in one class are a real conflict; an optional segment variant too", () => {
    class Twice extends View {
      index() {}
      get() {}
    }
    assert.equal(codeOf(() => tableOf({ Twice })).code, "E_ROUTE_CONFLICT");
    class Optional extends View {
      index() {}
      get(id = "1") {
        return id;
      }
    }
    assert.match(codeOf(() => tableOf({ Optional })).message, /Optional\.index\(\).*Optional\.get\(\)/);
  });

  test("different verbs, or paths differing only by a trailing slash, do not conflict", () => {
    class Form extends View {
      index() {}
      post() {}
      @request.route("/x")
      a() {}
      @request.route("/x/")
      b() {}
    }
    assert.equal(tableOf({ Form }).routes.length, 4);
  });
});

// Method names a view may declare: identifiers that are not reserved, hooks or private.
const reserved = new Set([...baseMemberNames(View), "ctx", "beforeRequest", "afterRequest", "constructor"]);
const methodName = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,12}$/).filter((name) => !reserved.has(name));
// Special names and spellings that collide, mixed in so that true conflicts are common.
const likelyName = fc.oneof(
  fc.constantFrom(
    "index",
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "update",
    "aboutUs",
    "about_us",
    "AboutUs",
    "helloWorld",
    "hello_world",
  ),
  methodName,
);

/** Makes a view class with the given methods (each taking `arity` parameters). */
function classWith(name: string, methods: ReadonlyArray<readonly [string, number]>): typeof View {
  const cls = { [name]: class extends View {} }[name]!;
  for (const [method, arity] of methods) {
    const params = Array.from({ length: arity }, (_, i) => `p${i}`).join(", ");
    // Real functions with real sources, as the kernel reads parameter names from the source.
    const fn = new Function(`return function (${params}) { return ${JSON.stringify(method)}; }`)();
    Object.defineProperty(cls.prototype, method, { value: fn, writable: true, configurable: true });
  }
  return cls;
}

describe("property tests", () => {
  test("route tables are deterministic for the same input", () => {
    const spec = fc.uniqueArray(fc.tuple(methodName, fc.integer({ min: 0, max: 2 })), {
      selector: ([name]) => kebabCase(name),
      maxLength: 8,
    });
    fc.assert(
      fc.property(spec, fc.boolean(), (methods, slash) => {
        const cls = classWith(
          "Things",
          methods.filter(([name]) => !(name in SPECIAL_VERBS)),
        );
        const first = tableOf({ Things: cls }, slash);
        const second = tableOf({ Things: cls }, slash);
        assert.deepEqual(second.toJSON(), first.toJSON());
        assert.deepEqual(entriesOf(second), entriesOf(first));
        assert.equal(second.format(), first.format());
      }),
    );
  });

  test("distinct method names in one class never produce a false conflict", () => {
    // Model: two methods truly conflict when they share a verb and a path. Arity is equal for
    // all methods so that silent names collide exactly when their verbs do.
    fc.assert(
      fc.property(
        fc.uniqueArray(likelyName, { maxLength: 10 }),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (names, arity, slash) => {
          const keyOf = (name: string) => ({
            path: name in SPECIAL_VERBS ? "" : kebabCase(name),
            verbs: SPECIAL_VERBS[name] ?? ["GET"],
          });
          let expectConflict = false;
          for (let i = 0; i < names.length; i++) {
            for (let j = i + 1; j < names.length; j++) {
              const a = keyOf(names[i]!);
              const b = keyOf(names[j]!);
              if (a.path === b.path && a.verbs.some((v) => b.verbs.includes(v))) expectConflict = true;
            }
          }
          const cls = classWith(
            "Things",
            names.map((n) => [n, arity] as const),
          );
          let conflict = false;
          try {
            tableOf({ Things: cls }, slash);
          } catch (error) {
            if ((error as { code?: string }).code !== "E_ROUTE_CONFLICT") throw error;
            conflict = true;
          }
          return conflict === expectConflict;
        },
      ),
      { numRuns: 300 },
    );
  });

  test("names with distinct kebab-case never conflict, whatever their arity", () => {
    const spec = fc.uniqueArray(fc.tuple(methodName, fc.integer({ min: 0, max: 3 })), {
      selector: ([name]) => kebabCase(name),
      maxLength: 10,
    });
    fc.assert(
      fc.property(spec, (methods) => {
        const plain = methods.filter(([name]) => !(name in SPECIAL_VERBS));
        const table = tableOf({ Things: classWith("Things", plain) });
        return table.routes.length === plain.length;
      }),
    );
  });
});
