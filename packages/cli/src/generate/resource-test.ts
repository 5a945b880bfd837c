/**
 * The test a resource generator writes (the same for both frameworks, with the framework's test
 * client): the list shows rows a factory made, create, a refused input, update and delete, through
 * the app in memory on a fresh SQLite database.
 */
import type { Field } from "./fields.js";
import type { ResourceNames } from "./resource-names.js";

/** A valid value of each field, as a form (strings) or JSON sends it. */
function sample(field: Field, form: boolean, variant: 1 | 2): unknown {
  const value = {
    string: `Sample ${variant}`,
    text: `Some text ${variant}`,
    integer: 3 * variant,
    number: 2.5 * variant,
    boolean: variant === 1,
  }[field.type];
  return form ? (field.type === "boolean" ? (value ? "true" : undefined) : String(value)) : value;
}

function body(fields: readonly Field[], form: boolean, variant: 1 | 2): string {
  const entries = fields
    .map((field) => [field.name, sample(field, form, variant)] as const)
    .filter(([, value]) => value !== undefined);
  return `{ ${entries.map(([name, value]) => `${name}: ${JSON.stringify(value)}`).join(", ")} }`;
}

/** The API's PATCH test: one field sent, the others kept. */
function partialPatch(names: ResourceNames, fields: readonly Field[]): string {
  const { model, plural } = names;
  const sent = fields[fields.length - 1]!;
  const value = JSON.stringify(sample(sent, false, 2));
  return `
test("a PATCH changes only the fields it sends", async () => {
  const row = await ${plural}.create();
  const res = await client.patch(client.urlFor("${plural}.update", { id: row.id }), { json: { ${sent.name}: ${value} } });
  assert.equal(res.status, 200);
  const stored = await ${model}.findOrFail(row.id);
  assert.equal(stored.${sent.name}, ${value});
${fields
  .filter((field) => field !== sent)
  .map((field) => `  assert.equal(stored.${field.name}, row.${field.name});`)
  .join("\n")}
  assert.deepEqual((res.json() as { ${names.item}: { id: number } }).${names.item}.id, row.id);
});
`;
}

/** The test file of a resource for `framework` (`fw-a`, `fw-b`); `api`: the JSON variant. */
export function resourceTestFile(
  framework: string,
  names: ResourceNames,
  fields: readonly Field[],
  api: boolean,
): string {
  const { model, plural } = names;
  const first = fields[0]!;
  const required = fields.find((field) => !field.optional && field.type !== "boolean");
  const send = api ? "json" : "form";
  const firstValue = JSON.stringify(sample(first, !api, 1));
  const refused = required
    ? `
test("a refused ${names.human} is not saved and says which field is wrong", async () => {
${api ? "" : "  // A form names its page in _back (as the generated form does): a refused form goes back there.\n"}  const res = await client.post(client.urlFor("${plural}.post"), { ${send}: { ...${body(fields, !api, 1)}, ${required.name}: ${required.type === "string" || required.type === "text" ? '""' : api ? '"not a number"' : '"x"'}${api ? "" : `, _back: client.urlFor("${plural}.new")`} } });
  assert.equal(res.status, ${api ? 422 : 303});
  ${api ? `assert.ok((res.json() as { error: { fields: Record<string, unknown> } }).error.fields["${required.name}"]);` : `assert.equal(res.headers["location"], client.urlFor("${plural}.new"));`}
  assert.equal(await ${model}.count(), 0);
});
`
    : "";
  return `// The ${names.humanPlural} resource through ${framework}'s test client: the app is built from this
// folder in the \`test\` environment, on a fresh in-memory database, and requests go through it in
// memory. Rows are made by the factory (seeded: the same rows on every run).
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, beforeEach, test } from "node:test";
import { seedFactories } from "${framework}";
import { testClient, type TestClient } from "${framework}/testing";
import { ${plural} } from "../lib/factories.js";
import { ${model} } from "../lib/models.js";

let client: TestClient;

before(async () => {
  client = await testClient(join(import.meta.dirname, ".."), { config: { dbUrl: "sqlite::memory:", autoMigrate: true } });
});
beforeEach(async () => {
  await ${model}.query().del();
  await seedFactories();
});
after(() => client.close());

test("the list shows the ${names.humanPlural}", async () => {
  const rows = await ${plural}.createMany(2);
  const res = await client.get(client.urlFor("${plural}.index"));
  assert.equal(res.status, 200);
  ${api ? `assert.deepEqual((res.json() as { ${names.table}: { id: number }[] }).${names.table}.map((row) => row.id), rows.map((row) => row.id));` : `for (const row of rows) assert.ok(res.text().includes(String(row.${first.name})), \`\${row.${first.name}} is listed\`);`}
});

test("a ${names.human} is created", async () => {
  const res = await client.post(client.urlFor("${plural}.post"), { ${send}: ${body(fields, !api, 1)} });
  assert.equal(res.status, ${api ? 201 : 302});
  const created = await ${model}.findByOrFail({ ${first.name}: ${api ? firstValue : first.type === "integer" || first.type === "number" ? `Number(${firstValue})` : first.type === "boolean" ? "true" : firstValue} });
  assert.equal(res.headers["location"], client.urlFor("${plural}.get", { id: created.id }));
});
${refused}
test("a ${names.human} is changed, then deleted", async () => {
  const row = await ${plural}.create();
  const changed = await client.${api ? "patch" : "post"}(client.urlFor("${plural}.update", { id: row.id }), { ${send}: ${api ? body(fields, false, 2) : `{ _method: "PATCH", ...${body(fields, true, 2)} }`} });
  assert.equal(changed.status, ${api ? 200 : 302});
  assert.equal((await ${model}.findOrFail(row.id)).${first.name}, ${JSON.stringify(sample(first, false, 2))});
  const deleted = await client.${api ? "delete" : "post"}(client.urlFor("${plural}.delete", { id: row.id })${api ? "" : ', { form: { _method: "DELETE" } }'});
  assert.equal(deleted.status, ${api ? 204 : 302});
  assert.equal(await ${model}.find(row.id), undefined);
});
${api ? partialPatch(names, fields) : ""}`;
}
