import "./support/new-york-time.js";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { convertDateColumns, isDateColumnName, sqliteDatePostProcess, toDate } from "../src/date-columns.js";

describe("toDate", () => {
  test("epoch milliseconds and UTC text become Dates; other values are left alone", () => {
    assert.deepEqual(toDate(1714566600000), new Date("2024-05-01T12:30:00Z"));
    assert.deepEqual(toDate("2024-05-01 12:30:00"), new Date("2024-05-01T12:30:00Z"));
    assert.deepEqual(toDate("2024-05-01T12:30:00.250+02:00"), new Date("2024-05-01T10:30:00.250Z"));
    assert.deepEqual(toDate("2024-05-01"), new Date("2024-05-01T00:00:00Z"));
    assert.equal(toDate("hello"), "hello");
    assert.equal(toDate(null), null);
    const date = new Date();
    assert.equal(toDate(date), date);
  });
});

describe("SQLite date conversion", () => {
  test("only *_at columns are dates by convention", () => {
    assert.ok(isDateColumnName("created_at"));
    assert.ok(!isDateColumnName("format"));
    assert.ok(!isDateColumnName("chat"));
  });

  test("the knex post-processor converts *_at columns of rows and arrays of rows", () => {
    const rows = sqliteDatePostProcess([{ id: 1, created_at: 0, title: "x", seat: 5 }]) as Record<string, unknown>[];
    assert.deepEqual(rows[0], { id: 1, created_at: new Date(0), title: "x", seat: 5 });
    assert.deepEqual(sqliteDatePostProcess({ updated_at: 1000 }), { updated_at: new Date(1000) });
    assert.deepEqual(sqliteDatePostProcess([3]), [3], "insert results are ids");
  });

  test("named columns convert whatever their name", () => {
    assert.deepEqual(convertDateColumns({ born: 0, other: 0 }, ["born"]), { born: new Date(0), other: 0 });
  });
});
