// Regression (PostgreSQL restarted under load): a query whose connection the server
// dropped, or that found no connection, is E_DB_UNREACHABLE (503), not an unexpected 500.
import assert from "node:assert/strict";
import { test } from "node:test";
import { translateDbError } from "../src/db-errors.js";
import { E_DB_UNREACHABLE } from "../src/errors.js";

for (const driverError of [
  { code: "57P01", message: "terminating connection due to administrator command" },
  { code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:5432" },
  { message: "Connection terminated unexpectedly" },
  { message: "Knex: Timeout acquiring a connection. The pool is probably full." },
  { code: "PROTOCOL_CONNECTION_LOST", message: "Connection lost: The server closed the connection." },
]) {
  test(`a lost connection (${driverError.code ?? driverError.message}) is E_DB_UNREACHABLE with status 503`, () => {
    const translated = translateDbError(Object.assign(new Error(driverError.message), driverError));
    assert.ok(translated instanceof E_DB_UNREACHABLE, String(translated));
    assert.equal((translated as { status?: number }).status, 503);
  });
}

test("other driver errors are left alone", () => {
  const error = Object.assign(new Error('syntax error at or near "selec"'), { code: "42601" });
  assert.equal(translateDbError(error), error);
});
