import assert from "node:assert/strict";
import { test } from "node:test";
import { createRequire } from "node:module";
import { columnOf, parseFields, patchSchemaOf, schemaOf } from "../../src/generate/fields.js";

// The generated schemas run in an app with zod; the data package's copy stands in for it here.
const { z } = createRequire(new URL("../../../data/package.json", import.meta.url))("zod") as { z: unknown };
type Parsed = { success: boolean; data?: unknown; error?: { issues: { message: string }[] } };
const schema = (source: string) => new Function("z", `return ${source};`)(z) as { safeParse(value: unknown): Parsed };
const messages = (source: string, value: unknown) =>
  (schema(source).safeParse(value).error?.issues ?? []).map((issue) => issue.message);

test("fields are name:type, with ? for an optional one", () => {
  assert.deepEqual(parseFields(["title:string", "price:number?", "done:boolean"]), [
    { name: "title", type: "string", optional: false },
    { name: "price", type: "number", optional: true },
    { name: "done", type: "boolean", optional: false },
  ]);
});

test("a wrong field is refused, naming why and the known types", () => {
  const refused = (specs: string[], why: RegExp) =>
    assert.throws(
      () => parseFields(specs),
      (error: Error & { code?: string }) => error.code === "E_RESOURCE_FIELD" && why.test(error.message),
    );
  refused([], /at least one field/);
  refused(["title"], /name:type/);
  refused(["title:strng"], /string, text, integer, number, boolean, references \(or belongs_to\)/);
  refused(["project:has_many"], /the known types are string, text, integer, number, boolean, references/);
  refused(["1title:string"], /letters, digits/);
  refused(["id:integer"], /kept by the model/);
  refused(["created_at:string"], /kept by the model/);
  refused(["title:string", "title:text"], /given twice/);
  refused(["project:references", "project_id:integer"], /given twice/);
  refused(["project:string", "project:references"], /given twice/);
});

test("project:references (or belongs_to, or project_id:references) is the project_id key of the project relation", () => {
  const expected = { name: "project_id", type: "references", optional: false, relation: "project" };
  assert.deepEqual(parseFields(["project:references"]), [expected]);
  assert.deepEqual(parseFields(["project:belongs_to"]), [expected]);
  assert.deepEqual(parseFields(["project_id:references"]), [expected]);
  const [project, owner] = parseFields(["project:references", "owner:references?"]);
  // Unsigned as the parent's increments("id") is on MariaDB, indexed, ON DELETE RESTRICT by default.
  assert.match(
    columnOf(project!),
    /table\.integer\("project_id"\)\.unsigned\(\)\.notNullable\(\)\.references\("id"\)\.inTable\("projects"\)\.onDelete\("RESTRICT"\);\n\s*table\.index\(\["project_id"\]\);$/,
  );
  assert.match(columnOf(owner!), /\.nullable\(\)\.references\("id"\)\.inTable\("owners"\)/);
  assert.equal(schema(schemaOf(project!, true)).safeParse("3").data, 3);
  assert.deepEqual(messages(schemaOf(project!, true), ""), ["Choose a project."]);
  assert.deepEqual(messages(schemaOf(project!, true), "x"), ["Choose an existing project."]);
  assert.deepEqual(messages(schemaOf(project!, false), 0), ["Choose an existing project."]);
  assert.equal(schema(schemaOf(owner!, true)).safeParse("").data, null, "an optional reference left empty is NULL");
  assert.equal(schema(patchSchemaOf(project!)).safeParse(undefined).success, true, "a PATCH may leave it out");
});

test("each type has its column and its schema; an optional one stores NULL when left empty", () => {
  const [title, notes, , done] = parseFields(["title:string", "notes:text?", "count:integer", "done:boolean"]);
  assert.equal(columnOf(title!), 'table.string("title", 200).notNullable();');
  assert.equal(columnOf(notes!), 'table.text("notes").nullable();');
  assert.equal(columnOf(done!), 'table.boolean("done").notNullable().defaultTo(false);');
  assert.equal(schemaOf(title!, true), "z.string().trim().min(1).max(200)");
  assert.match(schemaOf(notes!, true), /value === "" \? null : value/);
  assert.equal(schemaOf(done!, true), "z.stringbool().default(false)");
  assert.equal(schemaOf(done!, false), "z.boolean().default(false)");
});

test("a number field left empty says Required, a wrong one Enter a number (never NaN)", () => {
  const [count, price, rank] = parseFields(["count:integer", "price:number", "rank:integer?"]);
  assert.deepEqual(messages(schemaOf(count!, true), ""), ["Required."], "an empty form field is missing, not 0");
  assert.deepEqual(messages(schemaOf(count!, true), undefined), ["Required."]);
  assert.deepEqual(messages(schemaOf(count!, true), "abc"), ["Enter a number."]);
  assert.deepEqual(messages(schemaOf(count!, true), "2.5"), ["Enter a whole number."]);
  assert.equal(schema(schemaOf(count!, true)).safeParse("3").data, 3);
  assert.deepEqual(messages(schemaOf(count!, false), undefined), ["Required."]);
  assert.deepEqual(messages(schemaOf(count!, false), "3"), ["Enter a number."]);
  assert.equal(schema(schemaOf(price!, false)).safeParse(2.5).data, 2.5);
  assert.equal(schema(schemaOf(rank!, true)).safeParse("").data, null);
  assert.deepEqual(messages(schemaOf(rank!, true), "x"), ["Enter a number."]);
  assert.equal(schema(schemaOf(rank!, false)).safeParse(undefined).data, null);
});

test("a PATCH schema takes any of the fields and fills in no defaults", () => {
  const fields = parseFields(["title:string", "notes:text?", "count:integer", "done:boolean"]);
  const patch = `z.object({ ${fields.map((field) => `${field.name}: ${patchSchemaOf(field)}`).join(", ")} })`;
  assert.deepEqual(schema(patch).safeParse({}).data, {}, "done is not reset to false");
  assert.deepEqual(schema(patch).safeParse({ count: 2 }).data, { count: 2 });
  assert.deepEqual(schema(patch).safeParse({ notes: "" }).data, { notes: null });
  assert.deepEqual(messages(patch, { title: "" }).length, 1, "a field that is sent is still checked");
  assert.deepEqual(messages(patch, { count: "x" }), ["Enter a number."]);
});
