import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pageParams } from "../src/page-params.js";

function badParam(query: Record<string, unknown>, name: string): void {
  assert.throws(
    () => pageParams(query, { maxPerPage: 50 }),
    (error: Error & { code?: string; status?: number }) => {
      assert.equal(error.code, "E_BAD_PAGE_PARAM");
      assert.equal(error.status, 400);
      assert.ok(error.message.includes(name), error.message);
      return true;
    },
    JSON.stringify(query),
  );
}

describe("pageParams", () => {
  test("defaults to page 1 and the default page size", () => {
    assert.deepEqual(pageParams({}), { page: 1, perPage: 20 });
    assert.deepEqual(pageParams({ page: "", perPage: "" }), { page: 1, perPage: 20 });
    assert.deepEqual(pageParams({}, { maxPerPage: 10 }), { page: 1, perPage: 10 });
  });

  test("reads whole numbers, perPage or per_page", () => {
    assert.deepEqual(pageParams({ page: "3", perPage: "15" }), { page: 3, perPage: 15 });
    assert.deepEqual(pageParams({ page: " 007 ", per_page: "5" }), { page: 7, perPage: 5 });
  });

  test("a perPage above the limit is clamped to it", () => {
    assert.deepEqual(pageParams({ perPage: "1000" }, { maxPerPage: 50 }), { page: 1, perPage: 50 });
    assert.deepEqual(pageParams({ perPage: "99999999999999999999999" }, { maxPerPage: 50 }), { page: 1, perPage: 50 });
  });

  test("non-numbers, fractions, zero, negatives, repeats and huge pages are 400s naming the parameter", () => {
    for (const value of ["abc", "1.5", "1e3", "0x10", "-1", "0", "+2", "1;DROP TABLE x", "NaN", "Infinity"]) {
      badParam({ page: value }, "page");
      badParam({ perPage: value }, "perPage");
    }
    badParam({ page: ["1", "2"] }, "page");
    badParam({ page: "1000001" }, "page");
    badParam({ page: "99999999999999999999999" }, "page");
    badParam({ per_page: "0" }, "per_page");
  });

  test("lenient mode replaces bad values with the defaults", () => {
    assert.deepEqual(pageParams({ page: "abc", perPage: "-3" }, { lenient: true }), { page: 1, perPage: 20 });
    assert.deepEqual(pageParams({ page: "99999999" }, { lenient: true, maxPage: 100 }), { page: 100, perPage: 20 });
  });
});
