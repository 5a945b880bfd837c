import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  comparePatterns,
  joinPath,
  patternOrderKey,
  patternParams,
  patternShape,
  toggleTrailingSlash,
  validateRoutePath,
} from "../src/paths.js";
import { codeOf } from "./helpers.js";

describe("validateRoutePath", () => {
  test("accepts static segments, :name parameters and the root", () => {
    for (const path of ["/", "", "/feed.xml", "/account/:accountId", "relative/:id/", "/a-b_c~d/:été"]) {
      assert.doesNotThrow(() => validateRoutePath(path, "test"));
    }
  });

  test("refuses malformed parameters, wildcards, query and fragment characters, spaces", () => {
    for (const path of ["/:", "/:1abc", "/:id?", "/*", "/a?b", "/a#b", "/a b", "/a:b"]) {
      const error = codeOf(() => validateRoutePath(path, "@route on Blog.x()"));
      assert.equal(error.code, "E_INVALID_ROUTE_PATH", path);
      assert.match(error.message, /@route on Blog\.x\(\)/);
    }
  });

  test("refuses a non-string", () => {
    assert.equal(codeOf(() => validateRoutePath(42, "x")).code, "E_INVALID_ROUTE_PATH");
  });
});

describe("patternParams", () => {
  test("the :name parameters in order", () => {
    assert.deepEqual(patternParams("/account/:accountId/orders/:orderId/"), ["accountId", "orderId"]);
    assert.deepEqual(patternParams("/"), []);
  });
});

describe("joinPath (a leading / on a method path is still relative to the class prefix)", () => {
  test("examples", () => {
    assert.equal(joinPath("/blog", "/feed"), "/blog/feed");
    assert.equal(joinPath("/blog", "feed"), "/blog/feed");
    assert.equal(joinPath("/blog/", "/feed/"), "/blog/feed/");
    assert.equal(joinPath("", "/feed"), "/feed");
    assert.equal(joinPath("", ""), "/");
    assert.equal(joinPath("/blog", ""), "/blog");
    assert.equal(joinPath("/blog", "/"), "/blog/");
    assert.equal(joinPath("account/:id", "x"), "/account/:id/x");
  });
});

describe("patternShape", () => {
  test("parameter names do not matter", () => {
    assert.equal(patternShape("/blog/:id/"), patternShape("/blog/:slug/"));
    assert.notEqual(patternShape("/blog/:id"), patternShape("/blog/:id/"));
  });
});

describe("toggleTrailingSlash", () => {
  test("adds or removes the slash; the root has no twin", () => {
    assert.equal(toggleTrailingSlash("/about-us"), "/about-us/");
    assert.equal(toggleTrailingSlash("/about-us/"), "/about-us");
    assert.equal(toggleTrailingSlash("/"), undefined);
  });
});

describe("patternOrderKey", () => {
  test("one character per segment: 0 static, 1 parameter", () => {
    assert.equal(patternOrderKey("/blog/:id/"), "0010");
    assert.equal(patternOrderKey("/"), "00");
  });
});

describe("comparePatterns (static segments win over parameters)", () => {
  test("a static segment sorts before a parameter at the same position", () => {
    assert.ok(comparePatterns("/blog/latest", "/blog/:id") < 0);
    assert.ok(comparePatterns("/blog/:id", "/blog/latest") > 0);
    assert.equal(comparePatterns("/blog/a", "/blog/b"), 0);
  });

  // Regression: the comparator called a pattern "equal" to any longer pattern it prefixes, which is
  // not transitive; sorting [/items/:id, /items, /items/latest] left /items/:id first.
  test("issue: prefix patterns made the order intransitive", () => {
    const sorted = ["/items/:id", "/items", "/items/latest"].sort(comparePatterns);
    assert.ok(sorted.indexOf("/items/latest") < sorted.indexOf("/items/:id"), sorted.join(" "));
  });

  test("property: sorting puts, among same-length patterns, static before parameter at the first difference", () => {
    const segment = fc.constantFrom("a", "b", ":x", ":y", "");
    const pattern = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join("/")}`);
    fc.assert(
      fc.property(fc.array(pattern, { maxLength: 12 }), (patterns) => {
        const sorted = [...patterns].sort(comparePatterns);
        for (let i = 0; i < sorted.length; i++) {
          for (let j = i + 1; j < sorted.length; j++) {
            if (comparePatterns(sorted[i]!, sorted[j]!) > 0) return false;
          }
        }
        return true;
      }),
    );
  });
});

// The helpers above run for every route at start-up and were rewritten without `split` and regular
// expressions; these properties hold them to the straightforward definitions they replaced.
describe("path helpers agree with their plain definitions", () => {
  const reference = {
    patternParams: (pattern: string) =>
      pattern
        .split("/")
        .map((segment) => /^:([\p{ID_Start}_$][\p{ID_Continue}$\u200c\u200d]*)$/u.exec(segment)?.[1])
        .filter((name): name is string => name !== undefined),
    patternShape: (pattern: string) =>
      pattern
        .split("/")
        .map((segment) => (segment.startsWith(":") ? ":" : segment))
        .join("/"),
    patternOrderKey: (pattern: string) =>
      pattern
        .split("/")
        .map((segment) => (segment.startsWith(":") ? "1" : "0"))
        .join(""),
    joinPath: (prefix: string, path: string) => {
      const head = prefix.replace(/\/+$/, "");
      if (path === "") return head === "" ? "/" : head;
      const joined = `${head}${path.startsWith("/") ? path : `/${path}`}`;
      return joined.startsWith("/") ? joined : `/${joined}`;
    },
  };
  const piece = fc.constantFrom("", "/", "//", "a", "blog", ":id", ":été", ":", "::", "a:b", "%41", "é", ":1x");
  const path = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(""));

  test("property: patternParams, patternShape, patternOrderKey", () => {
    fc.assert(
      fc.property(fc.oneof(path, fc.string()), (pattern) => {
        assert.deepEqual(patternParams(pattern), reference.patternParams(pattern));
        assert.equal(patternShape(pattern), reference.patternShape(pattern));
        assert.equal(patternOrderKey(pattern), reference.patternOrderKey(pattern));
      }),
    );
  });

  test("property: joinPath", () => {
    fc.assert(
      fc.property(path, path, (prefix, tail) => assert.equal(joinPath(prefix, tail), reference.joinPath(prefix, tail))),
    );
  });
});
