import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseFields } from "../../src/generate/fields.js";
import { resolveReferences } from "../../src/generate/references.js";
import { commonResourcePlan } from "../../src/generate/resource-files.js";
import { resourceNames } from "../../src/generate/resource-names.js";

const app = mkdtempSync(join(tmpdir(), "references-"));
after(() => rmSync(app, { recursive: true, force: true }));
const write = (file: string, source: string) => {
  mkdirSync(join(app, file, ".."), { recursive: true });
  writeFileSync(join(app, file), source);
};
const task = resourceNames("Task");

test("a reference needs its parent's model and factory, and says what to generate first", () => {
  const refused = (why: RegExp) =>
    assert.throws(
      () => resolveReferences(app, task, parseFields(["title:string", "project:references"])),
      (error: Error & { code?: string }) => error.code === "E_RESOURCE_FIELD" && why.test(error.message),
    );
  refused(/no Project model .*generate the Project resource first/);
  write(
    "lib/models/projects.ts",
    "export interface ProjectRow extends BaseRow {\n  id: number;\n  code: number;\n  name: string;\n}\nexport const Project = 1;\n",
  );
  refused(/no Projects factory/);
  assert.throws(() => resolveReferences(app, task, parseFields(["task:references"])), /cannot refer to its own table/);
});

test("the parent's first string column labels it; the model, factory and migration refer to it", () => {
  write("lib/factories/projects.ts", "export const Projects = 1;\n");
  // The scaffold's own model is declared in lib/models.ts, its factory in lib/factories.ts.
  write("lib/models.ts", "export interface Note extends BaseRow {\n  title: string;\n}\nexport const Note = 1;\n");
  write("lib/factories.ts", "export const Notes = 1;\n");
  const fields = resolveReferences(app, task, parseFields(["title:string", "project:references", "note:belongs_to?"]));
  assert.deepEqual(
    fields.map((field) => field.parent && [field.parent.label, field.parent.modelImport, field.parent.factoryImport]),
    [undefined, ["name", "./projects.js", "./projects.js"], ["title", "../models.js", "../factories.js"]],
  );
  const files = commonResourcePlan("fw-a", task, fields, new Date(0)).files;
  const model = files["lib/models/tasks.ts"]!;
  assert.match(model, /import \{ belongsTo, defineModel, type BaseRow \} from "fw-a";/);
  assert.match(model, /import \{ Project \} from "\.\/projects\.js";\nimport \{ Note \} from "\.\.\/models\.js";/);
  assert.match(model, /project_id: number;\n {2}note_id: number \| null;/);
  assert.match(
    model,
    /\.relations\(\{\n {2}project: \(\) => belongsTo\(Project\),\n {2}note: \(\) => belongsTo\(Note\),\n\}\);/,
  );
  const factory = files["lib/factories/tasks.ts"]!;
  assert.match(factory, /import \{ Projects \} from "\.\/projects\.js";/);
  assert.match(factory, /project_id: async \(\) => \(await Projects\.create\(\)\)\.id,/);
  const migration = files["migrations/19700101000000_create_tasks.ts"]!;
  assert.match(migration, /\.references\("id"\)\.inTable\("projects"\)\.onDelete\("RESTRICT"\);/);
  assert.match(migration, /table\.index\(\["note_id"\]\);/);
});
