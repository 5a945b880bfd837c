/**
 * The declared input schemas a generated view module starts with, the same in both frameworks:
 * `NoteInput` (what a form or a client sends to create, and a form to update) and, for a JSON
 * API, `NotePatch` (what a PATCH sends: any of the fields, the others keep their values).
 */
import { patchSchemaOf, schemaOf, type Field } from "./fields.js";
import type { ResourceNames } from "./resource-names.js";

/** The source of the resource's input schema(s); `form`: the HTML variant (no PATCH schema). */
export function inputSchemaSource(names: ResourceNames, fields: readonly Field[], form: boolean): string {
  const whole = `/** What a ${names.human} ${form ? "form" : "client"} sends, checked before ${form ? "create and update run" : "create runs"}. */
export const ${names.input} = z.object({
${fields.map((field) => `  ${field.name}: ${schemaOf(field, form)},`).join("\n")}
});`;
  if (form) return whole;
  return `${whole}

/** What a PATCH sends: any of the fields; those left out keep their values. */
export const ${names.patch} = z.object({
${fields.map((field) => `  ${field.name}: ${patchSchemaOf(field)},`).join("\n")}
});`;
}
