import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, test } from "node:test";
import { connect } from "../src/connection.js";
import { defineModel } from "../src/model.js";
import { bindModels, findModelsFile, loadModels } from "../src/model-registry.js";

const root = mkdtempSync(join(tmpdir(), "data-registry-"));
after(() => rmSync(root, { recursive: true, force: true }));

describe("bindModels", () => {
  test("binds the models among a module's exports and ignores the rest", async () => {
    const db = await connect("sqlite::memory:");
    const A = defineModel("a");
    const B = defineModel("b");
    const bound = bindModels(db.knex, { A, B, helper: () => 1, value: 3 });
    assert.deepEqual(Object.keys(bound), ["A", "B"]);
    assert.ok(A.bound && B.bound);
    await db.close();
  });
});

describe("loadModels", () => {
  test("an app without lib/models has no models", async () => {
    const db = await connect("sqlite::memory:");
    assert.equal(findModelsFile(join(root, "empty")), undefined);
    assert.deepEqual(await loadModels(join(root, "empty"), db.knex), {});
    await db.close();
  });

  test("imports lib/models.js when there is no .ts file", async () => {
    const app = join(root, "js-app");
    mkdirSync(join(app, "lib"), { recursive: true });
    const modelSource = pathToFileURL(join(import.meta.dirname, "../src/model.ts")).href;
    writeFileSync(
      join(app, "lib", "models.mjs"),
      `import { defineModel } from ${JSON.stringify(modelSource)};\nexport const Tag = defineModel("tags");\n`,
    );
    assert.equal(findModelsFile(app), join(app, "lib", "models.mjs"));
    const db = await connect("sqlite::memory:");
    const models = await loadModels(app, db.knex);
    assert.deepEqual(Object.keys(models), ["Tag"]);
    assert.equal(models["Tag"]?.table, "tags");
    assert.ok(models["Tag"]?.bound);
    await db.close();
  });
});
