/**
 * What a resource generator writes that is the same in both frameworks (the migration, the model
 * and its factory, each in its own file, re-exported from lib/models.ts and lib/factories.ts), and
 * how it writes: every name checked for a clash first, nothing overwritten, nothing written at all
 * when one file or name is taken.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { E_RESOURCE_EXISTS } from "../errors.js";
import { columnOf, fakeValueOf, rowType, type Field } from "./fields.js";
import { referenceImports, referencesOf } from "./references.js";
import type { ResourceNames } from "./resource-names.js";

/**
 * A change to a file the app has (a link in its layout, rules in its stylesheet): the new content
 * (the same when it is there already), or why the file is left as it is, said in the output.
 */
export type ResourceEdit = (before: string) => { readonly content: string } | { readonly skipped: string };

/** Files to create (path -> content), lines to add at the end of existing files, and edits of existing files. */
export interface ResourcePlan {
  readonly files: Readonly<Record<string, string>>;
  readonly appends: Readonly<Record<string, string>>;
  /** Applied only to files the app has; a missing one is left out (said in the output). */
  readonly edits?: Readonly<Record<string, ResourceEdit>>;
}

/** A migration time stamp: `20261127183000`. */
function stamp(now: Date): string {
  return now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/** The migration, model and factory files of a resource; `framework` is the module apps import. */
export function commonResourcePlan(
  framework: string,
  names: ResourceNames,
  fields: readonly Field[],
  now: Date = new Date(),
): ResourcePlan {
  const modelFile = `lib/models/${names.module}.ts`;
  const factoryFile = `lib/factories/${names.module}.ts`;
  const relations = referencesOf(fields);
  // Each reference's relation: `Task.preload("project")` loads the project of every task in one query.
  const relationsSource = relations.length
    ? `.relations({\n${relations.map((field) => `  ${field.relation}: () => belongsTo(${field.parent.names.model}),`).join("\n")}\n});`
    : ";";
  return {
    files: {
      [`migrations/${stamp(now)}_create_${names.table}.ts`]: `import type { Knex } from "${framework}";

/** The ${names.table} table of the ${names.model} model (lib/${"models"}/${names.module}.ts). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("${names.table}", (table) => {
    table.increments("id");
${fields.map((field) => `    ${columnOf(field)}`).join("\n")}
    table.datetime("created_at", { precision: 3 }).notNullable();
    table.datetime("updated_at", { precision: 3 }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("${names.table}");
}
`,
      [modelFile]: `import { ${relations.length ? "belongsTo, " : ""}defineModel, type BaseRow } from "${framework}";
${referenceImports(fields, (parent) => [parent.names.model, parent.modelImport])}
/** A ${names.human}: a row of the \`${names.table}\` table. */
export interface ${names.row} extends BaseRow {
  id: number;
${fields.map((field) => `  ${field.name}: ${rowType(field)};`).join("\n")}
}

/** ${names.humanPlural}: \`await ${names.model}.all()\`, \`await ${names.model}.findOrFail(id)\`, \`await ${names.model}.create({ ... })\`${relations.length ? `, \`await ${names.model}.preload("${relations[0]!.relation}")\` (with its ${relations[0]!.parent.names.human})` : ""}. */
export const ${names.model} = defineModel<${names.row}>("${names.table}")${relationsSource}
`,
      [factoryFile]: `import { defineFactory } from "${framework}";
import { ${names.model} } from "../models/${names.module}.js";
${referenceImports(fields, (parent) => [parent.names.plural, parent.factoryImport])}
/** Fake ${names.humanPlural} for seeds and tests: \`await ${names.plural}.create()\`, \`await ${names.plural}.createMany(3, { ... })\`. */
export const ${names.plural} = defineFactory(${names.model}, ({ faker }) => ({
${fields.map((field) => `  ${field.name}: ${fakeValueOf(field)},`).join("\n")}
}));
`,
    },
    appends: {
      "lib/models.ts": `export * from "./models/${names.module}.js";\n`,
      "lib/factories.ts": `export * from "./factories/${names.module}.js";\n`,
    },
  };
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.[mc]?[jt]s$/.test(entry) ? [full] : [];
  });
}

/** Throws E_RESOURCE_EXISTS when a file or a name of the resource is already taken in the app at `root`. */
export function checkResourceClashes(root: string, names: ResourceNames, plan: ResourcePlan): void {
  for (const file of Object.keys(plan.files)) if (existsSync(join(root, file))) throw new E_RESOURCE_EXISTS(file);
  const migrations = join(root, "migrations");
  const taken = existsSync(migrations)
    ? readdirSync(migrations).find((file) => new RegExp(`^\\d+_create_${names.table}\\.[mc]?[jt]s$`).test(file))
    : undefined;
  if (taken) throw new E_RESOURCE_EXISTS(`migrations/${taken} (the ${names.table} table)`);
  const declared = (file: string, pattern: RegExp) =>
    existsSync(join(root, file)) && pattern.test(readFileSync(join(root, file), "utf8"));
  const exported = (name: string) => new RegExp(`export\\s+(const|class|interface|type|function)\\s+${name}\\b`);
  if (declared("lib/models.ts", exported(names.model)) || declared("lib/models.ts", exported(names.row)))
    throw new E_RESOURCE_EXISTS(`lib/models.ts (${names.model})`);
  if (declared("lib/factories.ts", exported(names.plural)))
    throw new E_RESOURCE_EXISTS(`lib/factories.ts (${names.plural})`);
  // A view class of the same name would answer the same URLs.
  for (const file of sourceFiles(join(root, "views"))) {
    if (new RegExp(`class\\s+${names.plural}\\b`).test(readFileSync(file, "utf8")))
      throw new E_RESOURCE_EXISTS(`${file.slice(root.length + 1)} (class ${names.plural})`);
  }
}

/** What {@link writeResource} did, for the command's output. */
export interface ResourceResult {
  readonly created: readonly string[];
  readonly appended: readonly string[];
  /** Existing files changed by an edit of the plan. */
  readonly updated: readonly string[];
  /** Files an edit left as they are, with the reason: `templates/layouts/base.html: no nav marker ...`. */
  readonly skipped: readonly string[];
}

/** Checks every clash, then creates the files and adds the lines; nothing is written when a name is taken. */
export function writeResource(root: string, names: ResourceNames, plan: ResourcePlan): ResourceResult {
  checkResourceClashes(root, names, plan);
  for (const [file, content] of Object.entries(plan.files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content, { flag: "wx" });
  }
  for (const [file, line] of Object.entries(plan.appends)) {
    const path = join(root, file);
    const before = existsSync(path) ? readFileSync(path, "utf8") : "";
    appendFileSync(path, `${before === "" || before.endsWith("\n") ? "" : "\n"}${line}`);
  }
  const updated: string[] = [];
  const skipped: string[] = [];
  for (const [file, edit] of Object.entries(plan.edits ?? {})) {
    const path = join(root, file);
    if (!existsSync(path)) {
      skipped.push(`${file}: not found`);
      continue;
    }
    const before = readFileSync(path, "utf8");
    const result = edit(before);
    if ("skipped" in result) skipped.push(`${file}: ${result.skipped}`);
    else if (result.content !== before) {
      writeFileSync(path, result.content);
      updated.push(file);
    }
  }
  return { created: Object.keys(plan.files), appended: Object.keys(plan.appends), updated, skipped };
}
