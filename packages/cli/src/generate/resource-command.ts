/**
 * The resource generator command (`fw-a gen:resource`, `fw-b :resource`): `NAME field:type...
 * [--api]` writes the migration, the model and its factory (the same in both frameworks) and the
 * framework's view, templates and test, refusing any name already taken and never overwriting.
 */
import { resolve } from "node:path";
import type { CommandModule } from "yargs";
import { E_APP_NOT_FOUND } from "@fwkit/koa-host/operations";
import { findAppEntry } from "@fwkit/koa-host/operations";
import { KNOWN_TYPES, parseFields, type Field } from "./fields.js";
import { resolveReferences } from "./references.js";
import { commonResourcePlan, writeResource, type ResourceEdit, type ResourceResult } from "./resource-files.js";
import { resourceNames, type ResourceNames } from "./resource-names.js";

/** What a framework's resource generator adds to the shared files. */
export interface ResourceScaffold {
  /** The module apps import the framework from (`fw-a`). */
  readonly framework: string;
  /** The view module, its templates (none with `api`) and the test file, for the app at `root`. */
  files(
    names: ResourceNames,
    fields: readonly Field[],
    options: { readonly api: boolean; readonly root: string },
  ): Readonly<Record<string, string>>;
  /**
   * Marks the migration as a draft (the data package's `markDraft`): like a migration from the
   * make-migration command, the development server does not apply it until it is edited.
   */
  readonly markDraft: (source: string) => string;
  /** Changes to files the app has (path -> edit), such as a link to the pages in its layout. */
  edits?(
    names: ResourceNames,
    fields: readonly Field[],
    options: { readonly api: boolean; readonly root: string },
  ): Readonly<Record<string, ResourceEdit>>;
}

/** Generates a resource in the app at `dir`; returns what was created and appended. */
export function generateResource(
  dir: string,
  name: string,
  specs: readonly string[],
  scaffold: ResourceScaffold,
  options: { readonly api?: boolean; readonly now?: Date } = {},
): ResourceResult {
  const root = resolve(dir);
  const names = resourceNames(name);
  const parsed = parseFields(specs);
  if (!findAppEntry(root))
    throw new E_APP_NOT_FOUND(
      root,
      "there is no app.ts here; run the init command of your framework first, or pass --root",
    );
  const fields = resolveReferences(root, names, parsed);
  const common = commonResourcePlan(scaffold.framework, names, fields, options.now);
  const migrations = Object.fromEntries(
    Object.entries(common.files).map(([file, source]) => [
      file,
      file.startsWith("migrations/") ? scaffold.markDraft(source) : source,
    ]),
  );
  const frameworkOptions = { api: options.api ?? false, root };
  const files = { ...migrations, ...scaffold.files(names, fields, frameworkOptions) };
  const edits = scaffold.edits?.(names, fields, frameworkOptions) ?? {};
  return writeResource(root, names, { files, appends: common.appends, edits });
}

type ResourceArgs = { root?: unknown; name: string; fields: string[]; api: boolean };

/** The resource command under a framework's name; `next` says what to run afterwards (migrate, test). */
export function resourceCommand(
  command: string,
  scaffold: ResourceScaffold,
  next: string,
): CommandModule<Record<string, unknown>, ResourceArgs> {
  return {
    command: `${command} <name> [fields..]`,
    describe:
      "generate a resource: migration, model, factory, declared schema, view (index/show/new/create/edit/update/delete), templates and a test (--api: JSON)",
    builder: (y) =>
      y
        .positional("name", {
          type: "string",
          demandOption: true,
          describe: "the model's name, singular (Note, blog_post)",
        })
        .positional("fields", {
          type: "string",
          array: true,
          default: [],
          describe: `name:type (${KNOWN_TYPES}; name:type? for an optional one; project:references is a project_id foreign key with its relation, the Project resource generated first)`,
        })
        .option("api", { type: "boolean", default: false, describe: "a JSON API instead of HTML pages" }) as never,
    handler(args) {
      const result = generateResource(
        String(args.root ?? process.cwd()),
        args.name,
        args.fields.map(String),
        scaffold,
        { api: args.api },
      );
      for (const file of result.created)
        console.log(
          file.startsWith("migrations/")
            ? `create  ${file} (a draft: the development server applies it once you edit it; the migrate command applies it as written)`
            : `create  ${file}`,
        );
      for (const file of result.appended) console.log(`append  ${file}`);
      for (const file of result.updated) console.log(`update  ${file}`);
      for (const reason of result.skipped) console.log(`skip    ${reason}`);
      console.log(`\nNext: ${next}`);
    },
  };
}
