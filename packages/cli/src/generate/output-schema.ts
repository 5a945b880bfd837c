/**
 * The schema of a row as a generated JSON API answers it (`TaskOut`), declared on its routes so the
 * app's OpenAPI document describes the answers: the row's columns, and each reference's parent as
 * the view preloads it (`project: { id, name }`).
 */
import { referencesOf } from "./references.js";
import type { Field } from "./fields.js";
import type { ResourceNames } from "./resource-names.js";

/** The zod type of a field's value in an answer. */
function outputType(field: Field): string {
  const base = {
    string: "z.string()",
    text: "z.string()",
    integer: "z.number().int()",
    number: "z.number()",
    boolean: "z.boolean()",
    references: "z.number().int()",
  }[field.type];
  return field.optional && field.type !== "boolean" ? `${base}.nullable()` : base;
}

/** The name of a resource's answer schema: `TaskOut`. */
export function outputName(names: ResourceNames): string {
  return `${names.model}Out`;
}

/** The source of the answer schema of one row (`TaskOut`), parents included. */
export function outputSchemaSource(names: ResourceNames, fields: readonly Field[]): string {
  const parents = referencesOf(fields).map(({ relation, parent, optional }) => {
    const label = parent.label === "id" ? "" : ` ${parent.label}: z.string(),`;
    // Preloaded with the row; null only when the reference is optional and empty.
    return `  ${relation}: z.object({ id: z.number().int(),${label} })${optional ? ".nullable()" : ""},`;
  });
  return `/** A ${names.human} as the API answers it${parents.length ? ", with what it refers to" : ""}. */
export const ${outputName(names)} = z.object({
  id: z.number().int(),
${fields.map((field) => `  ${field.name}: ${outputType(field)},`).join("\n")}
${parents.length ? `${parents.join("\n")}\n` : ""}  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});`;
}
