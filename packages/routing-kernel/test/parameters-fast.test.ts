import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseParameters, readParameters, readSimpleParameters } from "../src/parameters.js";

/** What the parser (acorn) reads from a source: the specs, or the error code it throws. */
function parsed(source: string): unknown {
  try {
    return parseParameters(source, "View.m()");
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

/** What `readParameters` gives for a function: the specs, or the error code it throws. */
function read(fn: Function): unknown {
  try {
    return readParameters(fn, "View.m()");
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

/** Makes a real function from method text inside a class (strict), so its source and length are real. */
function method(text: string): Function | undefined {
  try {
    const cls = new Function(`return class { ${text} }`)() as { prototype: object };
    const name = Object.getOwnPropertyNames(cls.prototype).find((n) => n !== "constructor");
    const descriptor = name === undefined ? undefined : Object.getOwnPropertyDescriptor(cls.prototype, name);
    return descriptor?.value ?? descriptor?.get ?? descriptor?.set;
  } catch {
    return undefined; // not valid JavaScript: nothing to compare
  }
}

/** Makes a real function from an expression (a function, arrow or object-literal method). */
function expression(text: string): Function | undefined {
  try {
    return new Function(`return (${text});`)() as Function;
  } catch {
    return undefined;
  }
}

describe("readParameters: the fast path for plain parameter lists", () => {
  test("plain identifiers are read without the parser, as the parser reads them", () => {
    for (const text of [
      "show(id) {}",
      "async list(page, size) {}",
      "*gen(a) {}",
      "async *each(a, b) {}",
      "m( a ,\n\tb\r\n) {}",
      "$x(_y, $z) {}",
      "async(a) {}",
      "get(id) {}",
      "set(id) {}",
    ]) {
      const fn = method(text)!;
      const source = Function.prototype.toString.call(fn);
      const fast = readSimpleParameters(source, fn.length);
      assert.ok(fast, text);
      assert.deepEqual(fast, parsed(source), text);
      assert.deepEqual(read(fn), parsed(source), text);
    }
  });

  test("anything unusual is left to the parser", () => {
    const cases = [
      'list(page = "1") {}', // a default
      "m(a /* b, c */) {}", // a comment
      "m(a, // b\n c) {}", // a line comment
      "m({ id }) {}", // destructuring
      "m([first]) {}",
      "m({ id } = {}) {}",
      "m(...rest) {}", // rest
      "m(a,) {}", // a trailing comma
      "m(a\u00a0) {}", // unusual whitespace
      "m(caf\u00e9) {}", // a non-ASCII name
      "caf\u00e9(a) {}",
      "m(\\u0061) {}", // an escaped name
      "get x() { return 1; }", // a getter
      "set x(v) {}",
      '["computed-name"](slug) {}',
      "0(a) {}",
      "async\u00a0m(a) {}",
    ];
    for (const text of cases) {
      const fn = method(text);
      assert.ok(fn, text);
      const source = Function.prototype.toString.call(fn);
      assert.equal(readSimpleParameters(source, fn.length), undefined, text);
      assert.deepEqual(read(fn), parsed(source), text);
    }
  });

  test("arrow functions, function expressions and object methods read as before", () => {
    const cases = [
      "(a, b) => a + b",
      "a => a",
      "async (a) => a",
      "async a => a",
      "function (a, b) {}",
      "function named(a) {}",
      "async function (a) {}",
      "function* (a) {}",
      "({ m(a, b) {} }).m",
      "({ async m(a) {} }).m",
    ];
    for (const text of cases) {
      const fn = expression(text)!;
      assert.ok(fn, text);
      assert.deepEqual(read(fn), parsed(Function.prototype.toString.call(fn)), text);
    }
  });

  test("sloppy-mode names the module parser refuses stay its decision", () => {
    for (const text of [
      "function (yield) {}",
      "function (let, a) {}",
      "function (a, a) {}",
      "function (eval) {}",
      "function (arguments) {}",
      "function (package) {}",
    ]) {
      const fn = expression(text)!;
      const source = Function.prototype.toString.call(fn);
      assert.equal(readSimpleParameters(source, fn.length), undefined, text);
      assert.deepEqual(read(fn), parsed(source), text);
    }
  });

  test("property: on any method source, the fast path gives what the parser gives, or declines", () => {
    const name = fc.oneof(
      fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$]{0,6}$/),
      fc.constantFrom(
        "async",
        "get",
        "set",
        "of",
        "let",
        "yield",
        "await",
        "eval",
        "static",
        "caf\u00e9",
        "\u00fcber",
        "\u0394x",
        "\\u0061b",
      ),
    );
    const space = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom("", " ", "\t", "\n") },
      { weight: 1, arbitrary: fc.constantFrom("  ", "\r\n", "\u00a0", "\u2028", "\ufeff", "/* c */", "// c\n") },
    );
    const parameter = fc.oneof(
      { weight: 12, arbitrary: name },
      { weight: 1, arbitrary: name.map((n) => `${n} = "a,b"`) },
      { weight: 1, arbitrary: name.map((n) => `${n} = (1, 2)`) },
      { weight: 1, arbitrary: name.map((n) => `...${n}`) },
      { weight: 1, arbitrary: name.map((n) => `{ ${n} }`) },
      { weight: 1, arbitrary: name.map((n) => `[${n}]`) },
    );
    const list = fc
      .tuple(fc.array(fc.tuple(space, parameter, space), { maxLength: 4 }), fc.boolean())
      .map(
        ([items, trailing]) =>
          items.map(([a, p, b]) => `${a}${p}${b}`).join(",") + (trailing && items.length > 0 ? "," : ""),
      );
    const head = fc.constantFrom("", "async ", "async\t", "*", "* ", "async *", "async* ", "get ", "static ");
    fc.assert(
      fc.property(head, name, space, list, space, (prefix, methodName, gap, params, beforeBody) => {
        const fn = method(`${prefix}${methodName}${gap}(${params})${beforeBody}{ return 1; }`);
        if (!fn) return true;
        const source = Function.prototype.toString.call(fn);
        const fast = readSimpleParameters(source, fn.length);
        if (fast !== undefined) assert.deepEqual(fast, parsed(source), source);
        assert.deepEqual(read(fn), parsed(source), source);
        return true;
      }),
      { numRuns: 3000 },
    );
  });
});
