import assert from "node:assert/strict";
import { test } from "node:test";
import { E_DB_DRIVER_MISSING } from "../src/errors.js";

// The drivers are optional peer dependencies: the message is what a user with a
// production install and a postgres:// or mysql:// URL sees, so it must carry the exact command.
test("E_DB_DRIVER_MISSING names the database (masked), the package and its exact install command", () => {
  for (const name of ["pg", "mysql2", "better-sqlite3"]) {
    const error = new E_DB_DRIVER_MISSING("postgres://app:***@db/app", name, `Cannot find module '${name}'`);
    assert.equal((error as Error & { code?: string }).code, "E_DB_DRIVER_MISSING");
    assert.match(
      error.message,
      new RegExp(`^The database at postgres://app:\\*\\*\\*@db/app needs the package "${name}"`),
    );
    assert.match(error.message, new RegExp(`\\(npm install ${name}\\)`));
  }
});
