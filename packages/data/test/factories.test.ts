import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { requireServer } from "@fwkit/test-servers";
import { connect, defineFactory, defineModel } from "../src/index.js";
import { factorySuite } from "./factories.case.js";

const dir = mkdtempSync(join(tmpdir(), "data-factories-"));
after(() => rmSync(dir, { recursive: true, force: true }));

factorySuite("SQLite", () => connect("sqlite:app.db", { root: dir }));
factorySuite("PostgreSQL", async () => connect(await requireServer("postgres")));
factorySuite("MariaDB", async () => connect(await requireServer("mysql")));

test("defineFactory refuses something that is not a model", () => {
  assert.throws(() => defineFactory({} as never, () => ({}) as never), { code: "E_FACTORY_DEFINITION" });
  assert.throws(() => defineFactory(defineModel("notes"), undefined as never), { code: "E_FACTORY_DEFINITION" });
});
