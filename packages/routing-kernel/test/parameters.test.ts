import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readParameters } from "../src/parameters.js";
import { codeOf } from "./helpers.js";

class Sample {
  plain(a: string, b: string) {
    return a + b;
  }
  withDefault(id: string, page = "1") {
    return id + page;
  }
  tricky(a = "x,y", b = ((p: string) => `${p})`)("q"), /* c, */ d = { e: [1, 2] }) {
    return [a, b, d];
  }
  async asyncMethod(id: string) {
    return id;
  }
  *generator(n: string) {
    yield n;
  }
  async *asyncGenerator(n: string) {
    yield n;
  }
  ["computed-name"](slug: string) {
    return slug;
  }
  none() {
    return "";
  }
  rest(...parts: string[]) {
    return parts;
  }
  object({ id }: { id: string }) {
    return id;
  }
  array([first]: string[]) {
    return first;
  }
  objectWithDefault({ id } = { id: "1" }) {
    return id;
  }
}

const names = (fn: Function) => readParameters(fn, "Sample.x()").map((p) => `${p.name}${p.optional ? "?" : ""}`);

describe("readParameters", () => {
  test("each declared parameter in order", () => {
    assert.deepEqual(names(Sample.prototype.plain), ["a", "b"]);
    assert.deepEqual(names(Sample.prototype.none), []);
  });

  test("a parameter with a default value is optional", () => {
    assert.deepEqual(names(Sample.prototype.withDefault), ["id", "page?"]);
  });

  test("a real parser: defaults holding commas, parentheses and comments", () => {
    assert.deepEqual(names(Sample.prototype.tricky), ["a?", "b?", "d?"]);
  });

  test("async, generator, async generator and computed-name methods", () => {
    assert.deepEqual(names(Sample.prototype.asyncMethod), ["id"]);
    assert.deepEqual(names(Sample.prototype.generator), ["n"]);
    assert.deepEqual(names(Sample.prototype.asyncGenerator), ["n"]);
    assert.deepEqual(names(Sample.prototype["computed-name"]), ["slug"]);
  });

  test("plain functions and arrow functions", () => {
    assert.deepEqual(
      names(function named(x: string, y = 2) {
        return x + y;
      }),
      ["x", "y?"],
    );
    assert.deepEqual(
      names((x: string) => x),
      ["x"],
    );
    assert.deepEqual(
      names(async (x: string, y: string) => x + y),
      ["x", "y"],
    );
  });

  test("a rest parameter is a startup error naming the method", () => {
    const error = codeOf(() => readParameters(Sample.prototype.rest, "Blog.rest()"));
    assert.equal(error.code, "E_UNSUPPORTED_PARAMETER");
    assert.match(error.message, /Blog\.rest\(\)/);
    assert.match(error.message, /rest parameter/);
  });

  test("destructured parameters are startup errors naming the method", () => {
    for (const [fn, detail] of [
      [Sample.prototype.object, /destructured/],
      [Sample.prototype.array, /destructured/],
      [Sample.prototype.objectWithDefault, /destructured parameter with a default/],
    ] as const) {
      const error = codeOf(() => readParameters(fn, "Blog.show()"));
      assert.equal(error.code, "E_UNSUPPORTED_PARAMETER");
      assert.match(error.message, /Blog\.show\(\)/);
      assert.match(error.message, detail);
    }
  });

  test("a bound or native function cannot be read: E_UNREADABLE_PARAMETERS", () => {
    const bound = Sample.prototype.plain.bind(new Sample());
    const error = codeOf(() => readParameters(bound, "Blog.bound()"));
    assert.equal(error.code, "E_UNREADABLE_PARAMETERS");
    assert.match(error.message, /Blog\.bound\(\)/);
    assert.equal(codeOf(() => readParameters(Math.max, "Math.max()")).code, "E_UNREADABLE_PARAMETERS");
  });

  test("a source that is not a function or method (a class): E_UNREADABLE_PARAMETERS", () => {
    const error = codeOf(() => readParameters(class Nested {}, "Blog.nested()"));
    assert.equal(error.code, "E_UNREADABLE_PARAMETERS");
    assert.match(error.message, /does not parse as a function/);
  });

  test("results are cached and frozen", () => {
    const first = readParameters(Sample.prototype.withDefault, "Sample.withDefault()");
    assert.equal(readParameters(Sample.prototype.withDefault, "Sample.withDefault()"), first);
    assert.ok(Object.isFrozen(first));
  });
});

test("empty parameter lists take the fast path and still read right", () => {
  const views = {
    plain() {},
    async later() {},
    *gen() {},
    async() {},
    withDefault(page = "1") {
      return page;
    },
  };
  assert.deepEqual(readParameters(views.plain, "plain"), []);
  assert.deepEqual(readParameters(views.later, "later"), []);
  assert.deepEqual(readParameters(views.gen, "gen"), []);
  assert.deepEqual(readParameters(views.async, "async"), []);
  assert.deepEqual(readParameters(views.withDefault, "withDefault"), [{ name: "page", optional: true }]);
});
