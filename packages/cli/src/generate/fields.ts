/**
 * The fields of a generated resource, as typed on the command line (`title:string body:text
 * done:boolean`, `price:number?` for an optional one), and what each type becomes in every file
 * the generator writes: the column, the row type, the declared schema, the form input, the
 * factory's fake value.
 */
import { E_RESOURCE_FIELD } from "../errors.js";

/** The field types a resource can have. */
export const FIELD_TYPES = ["string", "text", "integer", "number", "boolean"] as const;

/** One field type. */
export type FieldType = (typeof FIELD_TYPES)[number];

/** One field of a resource. */
export interface Field {
  /** The column and property name (snake_case or camelCase letters and digits). */
  readonly name: string;
  readonly type: FieldType;
  /** `name:type?`: the column is nullable and the form may leave it empty. */
  readonly optional: boolean;
}

const RESERVED = new Set([
  "id",
  "created_at",
  "updated_at",
  "deleted_at",
  "constructor",
  "prototype",
  "__proto__",
  "_method",
  "_csrf_token",
  "_idempotency_key",
  "_back",
]);
const NAME = /^[a-z][a-z0-9_]{0,62}$/i;

/** Parses `name:type` arguments; E_RESOURCE_FIELD names what is wrong and the known types. */
export function parseFields(specs: readonly string[]): Field[] {
  if (specs.length === 0) throw new E_RESOURCE_FIELD("(none)", "give at least one field, e.g. title:string");
  const fields: Field[] = [];
  for (const spec of specs) {
    const match = /^([^:]+):([a-z]+)(\?)?$/.exec(spec);
    if (!match) throw new E_RESOURCE_FIELD(spec, "write each field as name:type, e.g. title:string or price:number?");
    const [, name, type, optional] = match as unknown as [string, string, string, string | undefined];
    if (!NAME.test(name))
      throw new E_RESOURCE_FIELD(spec, "a field name is letters, digits and _ starting with a letter");
    if (RESERVED.has(name.toLowerCase()))
      throw new E_RESOURCE_FIELD(spec, `${name} is kept by the model or the forms; choose another name`);
    if (!(FIELD_TYPES as readonly string[]).includes(type))
      throw new E_RESOURCE_FIELD(spec, `the known types are ${FIELD_TYPES.join(", ")}`);
    if (fields.some((field) => field.name === name)) throw new E_RESOURCE_FIELD(spec, `${name} is given twice`);
    fields.push({ name, type: type as FieldType, optional: optional === "?" });
  }
  return fields;
}

/** The TypeScript type of the field in the row interface. */
export function rowType(field: Field): string {
  const base = { string: "string", text: "string", integer: "number", number: "number", boolean: "boolean" }[
    field.type
  ];
  return field.optional ? `${base} | null` : base;
}

/** The knex column of the migration. */
export function columnOf(field: Field): string {
  const column = {
    string: `table.string(${JSON.stringify(field.name)}, 200)`,
    text: `table.text(${JSON.stringify(field.name)})`,
    integer: `table.integer(${JSON.stringify(field.name)})`,
    number: `table.double(${JSON.stringify(field.name)})`,
    boolean: `table.boolean(${JSON.stringify(field.name)})`,
  }[field.type];
  if (field.type === "boolean") return `${column}.notNullable().defaultTo(false);`;
  return `${column}.${field.optional ? "nullable" : "notNullable"}();`;
}

/**
 * The zod number schema of a number field. A missing value says "Required." and a wrong one
 * "Enter a number." (zod's own words would be "expected number, received NaN" for an empty form
 * field); `form`: the value arrives as text and is turned into a number first.
 */
function numberSchema(field: Field, form: boolean, optional: boolean): string {
  const integer = field.type === "integer";
  const wrong = integer
    ? `issue.expected === "int" ? "Enter a whole number." : "Enter a number."`
    : `"Enter a number."`;
  const schema = `z.number({ error: (issue) => (issue.input === undefined ? "Required." : ${wrong}) })${integer ? ".int()" : ""}`;
  if (!form) return optional ? `${schema}.nullable()` : schema;
  // An empty number field is missing (Number("") would be 0); an optional one stores NULL.
  return optional
    ? `z.preprocess((value) => (value === "" || value === undefined || value === null ? null : Number(value)), ${schema}.nullable())`
    : `z.preprocess((value) => (value === "" || value === undefined ? undefined : Number(value)), ${schema})`;
}

/**
 * The zod schema of the field in the declared input. `form`: the HTML variant, whose values arrive
 * as strings (a checkbox as "on" or absent, an empty optional field as ""); else JSON's own types.
 */
export function schemaOf(field: Field, form: boolean): string {
  const text = (max: number) =>
    field.optional ? `z.string().trim().max(${max})` : `z.string().trim().min(1).max(${max})`;
  if (field.type === "boolean") return `${form ? "z.stringbool()" : "z.boolean()"}.default(false)`;
  if (field.type === "integer" || field.type === "number") {
    const schema = numberSchema(field, form, field.optional);
    return field.optional && !form ? `${schema}.default(null)` : schema;
  }
  const schema = text(field.type === "text" ? 20_000 : 200);
  if (!field.optional) return schema;
  // An optional field stores NULL when left empty: a form sends "" for it, JSON null or nothing.
  return `${schema}.transform((value) => (value === "" ? null : value)).nullable().default(null)`;
}

/**
 * The zod schema of the field in a JSON PATCH: every field may be left out and then keeps its
 * value (no defaults: zod fills a default in even inside `.partial()`, which would reset a field
 * the client did not send).
 */
export function patchSchemaOf(field: Field): string {
  if (field.type === "boolean") return "z.boolean().optional()";
  if (field.type === "integer" || field.type === "number")
    return `${numberSchema(field, false, field.optional)}.optional()`;
  const max = field.type === "text" ? 20_000 : 200;
  return field.optional
    ? `z.string().trim().max(${max}).transform((value) => (value === "" ? null : value)).nullable().optional()`
    : `z.string().trim().min(1).max(${max}).optional()`;
}

/** The factory's fake value for the field. */
export function fakeValueOf(field: Field): string {
  return {
    string: "faker.lorem.words(3)",
    text: "faker.lorem.paragraph()",
    integer: "faker.number.int({ min: 1, max: 100 })",
    number: "faker.number.float({ min: 1, max: 100, fractionDigits: 2 })",
    boolean: "faker.datatype.boolean()",
  }[field.type];
}

/** A label for the field: `due_on` -> `Due on`. */
export function labelOf(field: Field): string {
  const words = field.name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
