/**
 * The test a resource generator writes (the same for both frameworks, with the framework's test
 * client): the list shows rows a factory made, create, a refused input, update and delete, through
 * the app in memory on a fresh SQLite database.
 */
import type { Field } from "./fields.js";
import { liveChannel } from "./live.js";
import { referencesOf } from "./references.js";
import type { ResourceNames } from "./resource-names.js";

/** A valid value of each field, as a form (strings) or JSON sends it (a reference: see {@link parentsMade}). */
function sample(field: Field, form: boolean, variant: 1 | 2): unknown {
  if (field.type === "references") return undefined;
  const value = {
    string: `Sample ${variant}`,
    text: `Some text ${variant}`,
    integer: 3 * variant,
    number: 2.5 * variant,
    boolean: variant === 1,
  }[field.type];
  return form ? (field.type === "boolean" ? (value ? "true" : undefined) : String(value)) : value;
}

/**
 * The lines a test starts with to send its references: each parent made by its factory
 * (`const project = await Projects.create();`), since the foreign key takes only a stored row's id.
 */
function parentsMade(fields: readonly Field[]): string {
  return referencesOf(fields)
    .map(({ relation, parent }) => `  const ${relation} = await ${parent.names.plural}.create();\n`)
    .join("");
}

/** The source of a body with a valid value of each field; a reference sends the id of a parent from {@link parentsMade}. */
function body(fields: readonly Field[], form: boolean, variant: 1 | 2): string {
  const entries = fields.flatMap((field) => {
    if (field.relation) return [`${field.name}: ${form ? `String(${field.relation}.id)` : `${field.relation}.id`}`];
    const value = sample(field, form, variant);
    return value === undefined ? [] : [`${field.name}: ${JSON.stringify(value)}`];
  });
  return `{ ${entries.join(", ")} }`;
}

/** The test of a reference to a row that does not exist: refused on its field, in the words of the data layer. */
function missingParent(names: ResourceNames, fields: readonly Field[], api: boolean): string {
  const [field] = referencesOf(fields);
  if (!field) return "";
  const { plural, model } = names;
  const others = fields.filter((other) => other !== field);
  const sent = `{ ...${body(others, !api, 1)}, ${field.name}: ${api ? "999999" : '"999999"'}${api ? "" : `, _back: client.urlFor("${plural}.new")`} }`;
  const check = api
    ? `  assert.equal(res.status, 422);
  assert.match(String((res.json() as { error: { fields: Record<string, string[]> } }).error.fields["${field.name}"]), /Choose an existing ${field.parent.names.human}/);`
    : `  assert.equal(res.status, 303);
  assert.equal(res.headers["location"], client.urlFor("${plural}.new"));
  // The form comes back with the message on the field and the other fields as they were sent.
  const form = await client.get(client.urlFor("${plural}.new"));
  assert.match(form.text(), /Choose an existing ${field.parent.names.human}/);`;
  return `
test("a ${names.human} whose ${field.parent.names.human} does not exist is refused on that field", async () => {
${parentsMade(others)}  const res = await client.post(client.urlFor("${plural}.post"), { ${api ? "json" : "form"}: ${sent} });
${check}
  assert.equal(await ${model}.count(), 0);
});
`;
}

/** The API's PATCH test: one field sent, the others kept. */
function partialPatch(names: ResourceNames, fields: readonly Field[]): string {
  const { model, plural } = names;
  const sent = [...fields].reverse().find((field) => !field.relation) ?? fields[fields.length - 1]!;
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

/**
 * The test of `--live`: a create, an update and a delete through the pages are each broadcast on
 * the list page's channel with the row's id (the test client's `client.realtime`); `createdRow` finds the created row.
 */
function liveBroadcasts(names: ResourceNames, fields: readonly Field[], createdRow: string): string {
  const { plural } = names;
  return `
test("each change is broadcast to the list page on the ${liveChannel(names)} channel", async () => {
  client.realtime.clear();
${parentsMade(fields)}  await client.post(client.urlFor("${plural}.post"), { form: ${body(fields, true, 1)} });
  const row = ${createdRow};
  await client.post(client.urlFor("${plural}.update", { id: row.id }), { form: { _method: "PATCH", ...${body(fields, true, 2)} } });
  await client.post(client.urlFor("${plural}.delete", { id: row.id }), { form: { _method: "DELETE" } });
  const told = client.realtime.broadcasts("${liveChannel(names)}").map(({ event, data }) => [event, (data as { id: number }).id]);
  assert.deepEqual(told, [["created", row.id], ["updated", row.id], ["deleted", row.id]]);
});
`;
}

/**
 * The test file of a resource for `framework` (`fw-a`, `fw-b`); `api`: the JSON variant; `live`:
 * with the test of the list page's broadcasts.
 */
export function resourceTestFile(
  framework: string,
  names: ResourceNames,
  fields: readonly Field[],
  api: boolean,
  live = false,
): string {
  const { model, plural } = names;
  const first = fields.find((field) => !field.relation) ?? fields[0]!;
  const required = fields.find((field) => !field.optional && field.type !== "boolean" && !field.relation);
  const made = parentsMade(fields);
  const references = referencesOf(fields);
  const parentModels = [...new Set(references.map(({ parent }) => parent.names.model))];
  const parentFactories = [...new Set(references.map(({ parent }) => parent.names.plural))];
  // The list shows each row's parent by its label (HTML), or answers it preloaded (JSON).
  const parentsListed = references
    .map(({ name, relation, parent, optional }) => {
      if (api) {
        // An optional link may be empty: its relation is answered as null.
        const shape = optional ? `{ id: number } | null` : `{ id: number }`;
        const answered = `(res.json() as { ${names.table}: { ${relation}: ${shape} }[] }).${names.table}`;
        const id = optional ? `${relation}?.id ?? null` : `${relation}.id`;
        return `  for (const [at, row] of rows.entries()) assert.equal(${answered}[at]!.${id}, row.${name});\n`;
      }
      const label = `${relation}.${parent.label}`;
      return `  for (const row of rows) {${optional ? `\n    if (row.${name} === null) continue;` : ""}
    const ${relation} = await ${parent.names.model}.findOrFail(row.${name});
    assert.ok(res.text().includes(String(${label})), \`\${${label}} is shown\`);
  }\n`;
    })
    .join("");
  const send = api ? "json" : "form";
  const firstValue = JSON.stringify(sample(first, !api, 1));
  // The live test reads the broadcasts: the client type that has `realtime`.
  const clientType = live && !api ? "AppTestClient" : "TestClient";
  const createdRow = `await ${model}.findByOrFail({ ${first.name}: ${api ? firstValue : first.type === "integer" || first.type === "number" ? `Number(${firstValue})` : first.type === "boolean" ? "true" : firstValue} })`;
  const refused = required
    ? `
test("a refused ${names.human} is not saved and says which field is wrong", async () => {
${api ? "" : "  // A form names its page in _back (as the generated form does): a refused form goes back there.\n"}${made}  const res = await client.post(client.urlFor("${plural}.post"), { ${send}: { ...${body(fields, !api, 1)}, ${required.name}: ${required.type === "string" || required.type === "text" ? '""' : api ? '"not a number"' : '"x"'}${api ? "" : `, _back: client.urlFor("${plural}.new")`} } });
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
import { testClient, type ${clientType} } from "${framework}/testing";
import { ${[plural, ...parentFactories].join(", ")} } from "../lib/factories.js";
import { ${[model, ...parentModels].join(", ")} } from "../lib/models.js";

let client: ${clientType};

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
${parentsListed}});

test("a ${names.human} is created", async () => {
${made}  const res = await client.post(client.urlFor("${plural}.post"), { ${send}: ${body(fields, !api, 1)} });
  assert.equal(res.status, ${api ? 201 : 302});
  const created = ${createdRow};
  assert.equal(res.headers["location"], client.urlFor("${plural}.get", { id: created.id }));
});
${refused}${missingParent(names, fields, api)}
test("a ${names.human} is changed, then deleted", async () => {
  const row = await ${plural}.create();
${made}  const changed = await client.${api ? "patch" : "post"}(client.urlFor("${plural}.update", { id: row.id }), { ${send}: ${api ? body(fields, false, 2) : `{ _method: "PATCH", ...${body(fields, true, 2)} }`} });
  assert.equal(changed.status, ${api ? 200 : 302});
  assert.equal((await ${model}.findOrFail(row.id)).${first.name}, ${JSON.stringify(sample(first, false, 2))});
  const deleted = await client.${api ? "delete" : "post"}(client.urlFor("${plural}.delete", { id: row.id })${api ? "" : ', { form: { _method: "DELETE" } }'});
  assert.equal(deleted.status, ${api ? 204 : 302});
  assert.equal(await ${model}.find(row.id), undefined);
});
${api ? partialPatch(names, fields) : ""}${live && !api ? liveBroadcasts(names, fields, createdRow) : ""}`;
}
