// docs/configuration.md's table of config keys is generated from the batteries' config schemas
// (scripts/config-table.mjs); this fails when a key was added, removed or changed without the doc.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { DOC, renderTable, withTable } from "../scripts/config-table.mjs";

describe("configuration table", () => {
  test("docs/configuration.md's generated table matches the config schemas", async () => {
    const doc = readFileSync(DOC, "utf8");
    assert.equal(doc, withTable(doc, await renderTable()), "out of date: run node scripts/config-table.mjs update");
  });
});
