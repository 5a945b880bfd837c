/**
 * The fields of a generated resource, as typed on the command line (`title:string body:text
 * done:boolean`, `price:number?` for an optional one), and what each type becomes in every file
 * the generator writes: the column, the row type, the declared schema, the form input, the
 * factory's fake value.
 */
import { E_RESOURCE_FIELD } from "../errors.js";
import type { Parent } from "./parent.js";
import { resourceNames, type ResourceNames } from "./resource-names.js";

/**
 * The field types a resource can have. `references` (Rails' word; `belongs_to` is the same) makes
 * `project:references` a `project_id` foreign key to the projects table with its relation.
 */
export const FIELD_TYPES = ["string", "text", "integer", "number", "boolean", "references"] as const;

/** Other words for a type: `belongs_to` as in Rails. */
const TYPE_ALIASES: Readonly<Record<string, FieldType>> = { belongs_to: "references" };

/** The known types as a message lists them. */
export const KNOWN_TYPES = `${FIELD_TYPES.join(", ")} (or belongs_to)`;

/** One field type. */
export type FieldType = (typeof FIELD_TYPES)[number];

/** One field of a resource. */
export interface Field {
  /** The column and property name (snake_case or camelCase letters and digits); `project_id` for a reference. */
  readonly name: string;
  readonly type: FieldType;
  /** `name:type?`: the column is nullable and the form may leave it empty. */
  readonly optional: boolean;
  /** A reference's relation name: `project` for `project:references` (whose column is `project_id`). */
  readonly relation?: string;
  /** A reference's parent as the app declares it, found by resolveReferences before generating. */
  readonly parent?: Parent;
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
    const match = /^([^:]+):([a-z_]+)(\?)?$/i.exec(spec);
    if (!match) throw new E_RESOURCE_FIELD(spec, "write each field as name:type, e.g. title:string or price:number?");
    // The two groups without `?` always match when the pattern does.
    const [, given = "", written = "", optional] = match;
    const type = TYPE_ALIASES[written.toLowerCase()] ?? written.toLowerCase();
    if (!(FIELD_TYPES as readonly string[]).includes(type))
      throw new E_RESOURCE_FIELD(spec, `the known types are ${KNOWN_TYPES}`);
    if (!NAME.test(given))
      throw new E_RESOURCE_FIELD(spec, "a field name is letters, digits and _ starting with a letter");
    // `project:references` and `project_id:references` both mean the project relation on project_id.
    const relation = type === "references" ? given.replace(/_id$/i, "") : undefined;
    const name = relation === undefined ? given : `${relation}_id`;
    for (const taken of relation === undefined ? [name] : [relation, name])
      if (RESERVED.has(taken.toLowerCase()))
        throw new E_RESOURCE_FIELD(spec, `${taken} is kept by the model or the forms; choose another name`);
    const clash = (word: string) => fields.some((field) => field.name === word || field.relation === word);
    if (clash(name) || (relation !== undefined && clash(relation)))
      throw new E_RESOURCE_FIELD(spec, `${name} is given twice`);
    fields.push({
      name,
      type: type as FieldType,
      optional: optional === "?",
      ...(relation === undefined ? {} : { relation }),
    });
  }
  return fields;
}

/** The names of the resource a reference points to: `project` -> `Project`, `projects`, `Projects`. */
export function parentOf(field: Field): ResourceNames {
  return resourceNames(field.relation ?? field.name);
}

/** The TypeScript type of the field in the row interface. */
export function rowType(field: Field): string {
  const base = {
    string: "string",
    text: "string",
    integer: "number",
    number: "number",
    boolean: "boolean",
    references: "number",
  }[field.type];
  return field.optional ? `${base} | null` : base;
}

/** The knex column of the migration. */
export function columnOf(field: Field): string {
  if (field.type === "references") {
    // Unsigned as the parent's increments("id") is on MariaDB; indexed, since every preload and
    // every delete of a parent looks rows up by it.
    const parent = parentOf(field);
    const nullable = field.optional ? "nullable" : "notNullable";
    return `// ON DELETE RESTRICT: a ${parent.human} that rows of this table refer to cannot be deleted;
    // "CASCADE" deletes the rows with it${field.optional ? ', "SET NULL" keeps them without one' : ""}.
    table.integer(${JSON.stringify(field.name)}).unsigned().${nullable}().references("id").inTable(${JSON.stringify(parent.table)}).onDelete("RESTRICT");
    table.index([${JSON.stringify(field.name)}]);`;
  }
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
  const integer = field.type === "integer" || field.type === "references";
  const human = field.type === "references" ? parentOf(field).human : "";
  // A reference is picked from a list: missing says "Choose a project.", anything else not a row's id
  // "Choose an existing project." (the same words as a foreign key the database refuses).
  const missing = field.type === "references" ? `"Choose a ${human}."` : `"Required."`;
  const wrong =
    field.type === "references"
      ? `"Choose an existing ${human}."`
      : integer
        ? `issue.expected === "int" ? "Enter a whole number." : "Enter a number."`
        : `"Enter a number."`;
  const schema = `z.number({ error: (issue) => (issue.input === undefined ? ${missing} : ${wrong}) })${integer ? ".int()" : ""}${field.type === "references" ? `.positive(${wrong})` : ""}`;
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
  if (field.type === "integer" || field.type === "number" || field.type === "references") {
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
  if (field.type === "integer" || field.type === "number" || field.type === "references")
    return `${numberSchema(field, false, field.optional)}.optional()`;
  const max = field.type === "text" ? 20_000 : 200;
  return field.optional
    ? `z.string().trim().max(${max}).transform((value) => (value === "" ? null : value)).nullable().optional()`
    : `z.string().trim().min(1).max(${max}).optional()`;
}

/**
 * The factory's fake value for the field; a reference's parent is made by the parent's factory
 * (lazy: an override such as `{ project_id: project.id }` makes none).
 */
export function fakeValueOf(field: Field): string {
  if (field.type === "references") return `async () => (await ${parentOf(field).plural}.create()).id`;
  return {
    string: "faker.lorem.words(3)",
    text: "faker.lorem.paragraph()",
    integer: "faker.number.int({ min: 1, max: 100 })",
    number: "faker.number.float({ min: 1, max: 100, fractionDigits: 2 })",
    boolean: "faker.datatype.boolean()",
  }[field.type as Exclude<FieldType, "references">];
}

/** A label for the field: `due_on` -> `Due on`; a reference is named by its relation (`Project`). */
export function labelOf(field: Field): string {
  const words = (field.relation ?? field.name)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
