/**
 * What a generated view does for its references, the same in both frameworks: the list and the
 * show page load each row's parent with the rows (one query per relation, never one per row), and
 * the form pages get the parents' rows for their `<select>`.
 */
import type { Field } from "./fields.js";
import { referencesOf, type Parent } from "./references.js";
import type { ResourceNames } from "./resource-names.js";

/** `.preload("project")...` for every reference, or "" without any. */
function preloads(fields: readonly Field[]): string {
  return referencesOf(fields)
    .map((field) => `.preload(${JSON.stringify(field.relation)})`)
    .join("");
}

/** The relation names of the references, quoted: `"project", "owner"`. */
function relationNames(fields: readonly Field[]): string {
  return referencesOf(fields)
    .map((field) => JSON.stringify(field.relation))
    .join(", ");
}

/** The expression (awaited) a list loads its rows with: `Task.preload("project").orderBy("id")`, else `Task.all()`. */
export function listSource(names: ResourceNames, fields: readonly Field[]): string {
  const loaded = preloads(fields);
  return loaded ? `${names.model}${loaded}.orderBy("id")` : `${names.model}.all()`;
}

/** The expression (awaited) of one row by `id`, with its parents: `Task.load(await Task.findOrFail(id), "project")`. */
export function oneSource(names: ResourceNames, fields: readonly Field[], id = "id"): string {
  const one = `${names.model}.findOrFail(${id})`;
  return referencesOf(fields).length ? `${names.model}.load(await ${one}, ${relationNames(fields)})` : one;
}

/** A row just written, as an answer: with its parents loaded (`await Task.load(created, "project")`), else as it is. */
export function loadedSource(names: ResourceNames, fields: readonly Field[], row: string): string {
  return referencesOf(fields).length ? `await ${names.model}.load(${row}, ${relationNames(fields)})` : row;
}

/** The key a form page's choices of one parent are under: `projects`. */
export function choicesKey(parent: Parent): string {
  return parent.names.table;
}

/**
 * What a form page returns besides its row: `, projects: await Project.rows().orderBy("name")`
 * for each reference (the choices in label order), or "" without any.
 */
export function choicesSource(fields: readonly Field[]): string {
  return referencesOf(fields)
    .map(
      ({ parent }) =>
        `, ${choicesKey(parent)}: await ${parent.names.model}.rows().orderBy(${JSON.stringify(parent.label)})`,
    )
    .join("");
}

/** The models a view imports: its own and, for the form pages' choices (`forms`), each parent's (`Task, Project`). */
export function viewModels(names: ResourceNames, fields: readonly Field[], forms: boolean): string {
  const parents = forms ? referencesOf(fields).map(({ parent }) => parent.names.model) : [];
  return [names.model, ...new Set(parents)].join(", ");
}
