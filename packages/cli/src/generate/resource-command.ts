/**
 * The resource generator command (`fw-a gen:resource`, `fw-b :resource`): `NAME field:type...
 * [--api] [--live]` writes the migration, the model and its factory (the same in both frameworks)
 * and the framework's view, templates and test, refusing any name already taken and never
 * overwriting. With `--live` the list page updates live (live.ts).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CommandModule } from "yargs";
import { E_APP_NOT_FOUND } from "@fwkit/koa-host/operations";
import { E_CLI_USAGE } from "../errors.js";
import { findAppEntry } from "@fwkit/koa-host/operations";
import { KNOWN_TYPES, parseFields, type Field } from "./fields.js";
import { addLiveChannel, LIVE_SCRIPT, LIVE_SCRIPT_FILE } from "./live.js";
import { resolveReferences } from "./references.js";
import { commonResourcePlan, writeResource, type ResourceEdit, type ResourceResult } from "./resource-files.js";
import { resourceNames, type ResourceNames } from "./resource-names.js";

/** The generator's flags, as a framework's part sees them; `live` only with HTML pages. */
export interface ResourceOptions {
  /** `--api`: a JSON API instead of HTML pages. */
  readonly api: boolean;
  /** `--live`: the list page updates as rows change (the view broadcasts each change). */
  readonly live: boolean;
  /** The app's folder. */
  readonly root: string;
}

/** What a framework's resource generator adds to the shared files. */
export interface ResourceScaffold {
  /** The module apps import the framework from (`fw-a`). */
  readonly framework: string;
  /** The view module, its templates (none with `api`) and the test file, for the app at `root`. */
  files(names: ResourceNames, fields: readonly Field[], options: ResourceOptions): Readonly<Record<string, string>>;
  /**
   * Marks the migration as a draft (the data package's `markDraft`): like a migration from the
   * make-migration command, the development server does not apply it until it is edited.
   */
  readonly markDraft: (source: string) => string;
  /** Changes to files the app has (path -> edit), such as a link to the pages in its layout. */
  edits?(
    names: ResourceNames,
    fields: readonly Field[],
    options: ResourceOptions,
  ): Readonly<Record<string, ResourceEdit>>;
}

/** Generates a resource in the app at `dir`; returns what was created and appended. */
export function generateResource(
  dir: string,
  name: string,
  specs: readonly string[],
  scaffold: ResourceScaffold,
  options: { readonly api?: boolean; readonly live?: boolean; readonly now?: Date } = {},
): ResourceResult {
  const root = resolve(dir);
  const api = options.api ?? false;
  const live = options.live ?? false;
  if (live && api)
    throw new E_CLI_USAGE(
      "--live updates the HTML list page as rows change; a JSON API (--api) has no page: drop one of the two flags",
    );
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
  const frameworkOptions: ResourceOptions = { api, live, root };
  // The list script is the same for every live resource: written once, then left as the app has it.
  const script: Record<string, string> =
    live && !existsSync(join(root, LIVE_SCRIPT_FILE)) ? { [LIVE_SCRIPT_FILE]: LIVE_SCRIPT } : {};
  const files = { ...migrations, ...scaffold.files(names, fields, frameworkOptions), ...script };
  const edits = {
    ...scaffold.edits?.(names, fields, frameworkOptions),
    ...(live ? { "lib/config.ts": addLiveChannel(names) } : {}),
  };
  return writeResource(root, names, { files, appends: common.appends, edits });
}

type ResourceArgs = { root?: unknown; name: string; fields: string[]; api: boolean; live: boolean };

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
        .option("api", { type: "boolean", default: false, describe: "a JSON API instead of HTML pages" })
        .option("live", {
          type: "boolean",
          default: false,
          describe:
            "the list page updates live: the view broadcasts each change on a realtime channel named after the table",
        }) as never,
    handler(args) {
      const result = generateResource(
        String(args.root ?? process.cwd()),
        args.name,
        args.fields.map(String),
        scaffold,
        { api: args.api, live: args.live },
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
