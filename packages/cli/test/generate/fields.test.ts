import assert from "node:assert/strict";
import { test } from "node:test";
import { columnOf, parseFields, schemaOf } from "../../src/generate/fields.js";

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
  refused(["title:strng"], /string, text, integer, number, boolean/);
  refused(["1title:string"], /letters, digits/);
  refused(["id:integer"], /kept by the model/);
  refused(["created_at:string"], /kept by the model/);
  refused(["title:string", "title:text"], /given twice/);
});

test("each type has its column and its schema; an optional one stores NULL when left empty", () => {
  const [title, notes, count, done] = parseFields(["title:string", "notes:text?", "count:integer", "done:boolean"]);
  assert.equal(columnOf(title!), 'table.string("title", 200).notNullable();');
  assert.equal(columnOf(notes!), 'table.text("notes").nullable();');
  assert.equal(columnOf(done!), 'table.boolean("done").notNullable().defaultTo(false);');
  assert.equal(schemaOf(title!, true), "z.string().trim().min(1).max(200)");
  assert.match(schemaOf(notes!, true), /value === "" \? null : value/);
  assert.match(
    schemaOf(count!, true),
    /z\.preprocess\(.*z\.coerce\.number\(\)\.int\(\)\)/,
    "an empty number field is missing, not 0",
  );
  assert.equal(schemaOf(count!, false), "z.number().int()");
  assert.equal(schemaOf(done!, true), "z.stringbool().default(false)");
  assert.equal(schemaOf(done!, false), "z.boolean().default(false)");
});
