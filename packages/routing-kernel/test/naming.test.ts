import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { kebabCase } from "../src/naming.js";

describe("kebabCase", () => {
  const examples: Array<[string, string]> = [
    ["UserAccount", "user-account"],
    ["HTTPServer", "http-server"],
    ["APIDocs", "api-docs"],
    ["Api2Users", "api2-users"],
    ["Blog", "blog"],
    ["about_us", "about-us"],
    ["aboutUs", "about-us"],
    ["hello_world", "hello-world"],
    ["helloWorld", "hello-world"],
    ["Index", "index"],
    ["getJSONData", "get-json-data"],
    ["snake__double", "snake-double"],
    ["_leading", "leading"],
    ["trailing_", "trailing"],
  ];
  for (const [input, expected] of examples) {
    test(`${input} -> ${expected}`, () => assert.equal(kebabCase(input), expected));
  }

  test("no suffix is stripped (BlogView stays blog-view)", () => {
    assert.equal(kebabCase("BlogView"), "blog-view");
    assert.equal(kebabCase("UsersController"), "users-controller");
  });

  test("property: idempotent on identifiers", () => {
    const identifier = fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$]{0,20}$/);
    fc.assert(fc.property(identifier, (name) => kebabCase(kebabCase(name)) === kebabCase(name)));
  });

  test("property: idempotent on any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite" }), (name) => kebabCase(kebabCase(name)) === kebabCase(name)),
    );
  });

  test("property: output has no uppercase ASCII, no underscore, no doubled or edge hyphen", () => {
    const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/);
    fc.assert(
      fc.property(identifier, (name) => {
        const out = kebabCase(name);
        return !/[A-Z_]/.test(out) && !/--/.test(out) && !/^-|-$/.test(out);
      }),
    );
  });

  test("property: camelCase and snake_case spellings of the same words agree", () => {
    // Words of two or more letters: consecutive one-letter words read as an acronym (`aAA`).
    const word = fc.stringMatching(/^[a-z][a-z][a-z0-9]{0,5}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (words) => {
        const snake = words.join("_");
        const camel = words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join("");
        return kebabCase(snake) === kebabCase(camel) && kebabCase(snake) === words.join("-");
      }),
    );
  });
});

test("property: kebabCase gives what the six replacements give (its shortcut for a-z0-9 names changes nothing)", () => {
  const replacements = (name: string) =>
    name
      .replace(/_/g, "-")
      .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
      .toLowerCase()
      .replace(/-+/g, "-")
      .replace(/^-|-$/g, "");
  const name = fc.oneof(fc.stringMatching(/^[a-z0-9]{0,8}$/), fc.stringMatching(/^[A-Za-z0-9_$-]{0,12}$/), fc.string());
  fc.assert(fc.property(name, (input) => kebabCase(input) === replacements(input)));
});
