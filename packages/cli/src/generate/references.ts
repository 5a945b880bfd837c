/**
 * A resource's references (`project:references`), found in the app before anything is written: the
 * parent's model and factory must be there (generated first, or the scaffold's own), and the
 * parent's first string column (`name`, `title`) labels its rows in the generated select, list
 * and show pages. Both frameworks' generators use what this file finds.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { E_RESOURCE_FIELD } from "../errors.js";
import { parentOf, type Field } from "./fields.js";
import type { Parent } from "./parent.js";
import type { ResourceNames } from "./resource-names.js";

export type { Parent } from "./parent.js";

const read = (root: string, file: string) =>
  existsSync(join(root, file)) ? readFileSync(join(root, file), "utf8") : undefined;

/** The body of `interface <name>` in `source`, or undefined. */
function interfaceBody(source: string, names: readonly string[]): string | undefined {
  for (const name of names) {
    const match = new RegExp(`interface\\s+${name}\\b[^{]*\\{([^}]*)\\}`).exec(source);
    if (match) return match[1];
  }
  return undefined;
}

/** The first `column: string` of the parent's row interface (nullable or not), else `id`. */
function labelColumn(source: string, names: ResourceNames): string {
  const body = interfaceBody(source, [names.row, names.model]) ?? "";
  return /^\s*(?:readonly\s+)?([A-Za-z_][A-Za-z0-9_]*)\??\s*:\s*string\b/m.exec(body)?.[1] ?? "id";
}

/** Finds the parent of one reference in the app at `root`; E_RESOURCE_FIELD says what to generate first. */
function findParent(root: string, field: Field, child: ResourceNames): Parent {
  const names = parentOf(field);
  const spec = `${field.relation}:references`;
  if (names.model === child.model)
    throw new E_RESOURCE_FIELD(spec, `a ${child.human} cannot refer to its own table here; add that column by hand`);
  const exported = (name: string) => new RegExp(`export\\s+(const|let|class)\\s+${name}\\b`);
  const own = `lib/models/${names.module}.ts`;
  const modelSource = [own, "lib/models.ts"].map((file) => [file, read(root, file)] as const);
  const model = modelSource.find(([, source]) => source !== undefined && exported(names.model).test(source));
  if (!model)
    throw new E_RESOURCE_FIELD(
      spec,
      `the app has no ${names.model} model (lib/models/${names.module}.ts or lib/models.ts); generate the ${names.model} resource first, e.g. with the field name:string`,
    );
  const factories = [`lib/factories/${names.module}.ts`, "lib/factories.ts"];
  const factory = factories.find((file) => exported(names.plural).test(read(root, file) ?? ""));
  if (!factory)
    throw new E_RESOURCE_FIELD(
      spec,
      `the app has no ${names.plural} factory (${factories.join(" or ")}), which makes the ${names.human} of a fake ${child.human}; declare it with defineFactory(${names.model}, ...)`,
    );
  return {
    names,
    label: labelColumn(model[1]!, names),
    modelImport: model[0] === own ? `./${names.module}.js` : "../models.js",
    factoryImport: factory === factories[0] ? `./${names.module}.js` : "../factories.js",
  };
}

/** The fields with each reference's parent found in the app at `root` (see {@link Parent}). */
export function resolveReferences(root: string, child: ResourceNames, fields: readonly Field[]): Field[] {
  return fields.map((field) =>
    field.type === "references" ? { ...field, parent: findParent(root, field, child) } : field,
  );
}

/** The references among `fields`, with their parents. */
export function referencesOf(fields: readonly Field[]): (Field & { readonly parent: Parent })[] {
  return fields.filter((field): field is Field & { parent: Parent } => field.parent !== undefined);
}

/**
 * Imports a generated file needs for its references: `import { Project } from "./projects.js";`,
 * grouped per module. `pick`: the name and the module of one parent.
 */
export function referenceImports(
  fields: readonly Field[],
  pick: (parent: Parent) => readonly [name: string, from: string],
): string {
  const byModule = new Map<string, Set<string>>();
  for (const { parent } of referencesOf(fields)) {
    const [name, from] = pick(parent);
    byModule.set(from, (byModule.get(from) ?? new Set()).add(name));
  }
  return [...byModule].map(([from, names]) => `import { ${[...names].join(", ")} } from "${from}";\n`).join("");
}
