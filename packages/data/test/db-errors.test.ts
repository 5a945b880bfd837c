import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isUniqueViolation, translateDbError } from "../src/db-errors.js";

function driverError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields["message"] ?? "driver error")), fields);
}

describe("translateDbError", () => {
  test("unique violations of each dialect become E_UNIQUE_VIOLATION naming the column", () => {
    const cases: [Error, string][] = [
      [driverError({ code: "23505", detail: "Key (email)=(a@b.c) already exists.", table: "users" }), "email"],
      [
        driverError({
          code: "ER_DUP_ENTRY",
          errno: 1062,
          sqlMessage: "Duplicate entry 'a@b.c' for key 'users_email_unique'",
        }),
        "email",
      ],
      [driverError({ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: users.email" }), "email"],
      [
        driverError({ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: users.a, users.b" }),
        "a, b",
      ],
    ];
    for (const [error, column] of cases) {
      assert.ok(isUniqueViolation(error));
      const coded = translateDbError(error, "users") as Error & { code: string; status: number; cause: unknown };
      assert.equal(coded.code, "E_UNIQUE_VIOLATION");
      assert.equal(coded.status, 409);
      assert.equal(coded.message, `A users row with this ${column} already exists. Choose another value.`);
      assert.equal(coded.cause, error);
    }
  });

  test("without a table name, the one the driver names is used", () => {
    const coded = translateDbError(
      driverError({ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: notes.slug" }),
    ) as Error;
    assert.equal(coded.message, "A notes row with this slug already exists. Choose another value.");
  });

  test("foreign keys are 409, bad values 400, anything else is left alone", () => {
    assert.equal(
      (translateDbError(driverError({ code: "23503" }), "t") as { code: string }).code,
      "E_FOREIGN_KEY_VIOLATION",
    );
    assert.equal(
      (translateDbError(driverError({ errno: 1452 }), "t") as { code: string }).code,
      "E_FOREIGN_KEY_VIOLATION",
    );
    const tooLong = translateDbError(
      driverError({ errno: 1406, sqlMessage: "Data too long for column 'name' at row 1" }),
      "t",
    ) as Error & { status: number };
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.message, /Data too long for column 'name'/);
    const notNull = translateDbError(
      driverError({ code: "SQLITE_CONSTRAINT_NOTNULL", message: "NOT NULL constraint failed: t.name" }),
      "t",
    ) as Error;
    assert.match(notNull.message, /name must have a value/);
    // (A lost connection is no longer "anything else": it is 503, see db-errors-outage.test.ts.)
    const other = driverError({ code: "42601" });
    assert.equal(translateDbError(other, "t"), other);
    assert.equal(translateDbError("text"), "text");
  });
});
