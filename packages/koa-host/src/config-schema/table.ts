/**
 * The configuration table of docs/configuration.md, rendered from the batteries' schemas so the
 * docs never drift from what is read: one row per key (blocks as dotted names).
 */
import type { ConfigShape } from "./keys.js";
import type { ConfigSchema } from "./schema.js";

/** One battery's part of the table. */
export interface ConfigTableSection {
  /** The battery or package (`@fwkit/security`). */
  readonly owner: string;
  // biome-ignore lint/suspicious/noExplicitAny: any schema
  readonly schema: ConfigSchema<any>;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** Options of {@link renderConfigTable}. */
export interface ConfigTableOptions {
  /** Environment variables the host maps to keys (`ENV_KEYS`: `SESSION_URL` -> `sessionUrl`), shown beside them. */
  readonly hostEnv?: Readonly<Record<string, string>>;
}

function rows(shape: ConfigShape, prefix: string, owner: string, envOf: ReadonlyMap<string, string>): string[] {
  const lines: string[] = [];
  for (const [name, spec] of Object.entries(shape)) {
    const path = `${prefix}${name}`;
    const nested = spec.keys !== undefined && !spec.checkOnly ? rows(spec.keys, `${path}.`, owner, envOf) : [];
    // A block is only its keys; a section (switched on with its block) also has a row of its own.
    if (spec.kind === "block") {
      lines.push(...nested);
      continue;
    }
    const shown = spec.defaultText === undefined ? "-" : cell(spec.defaultText);
    const variable = spec.env ?? envOf.get(path);
    const env = variable === undefined ? "-" : `\`${variable}\``;
    lines.push(
      `| \`${path}\` | ${owner} | ${spec.kind.includes("`") ? spec.kind : cell(spec.kind)} | ${shown} | ${env} | ${cell(spec.doc)} |`,
    );
    lines.push(...nested);
  }
  return lines;
}

/** The Markdown table of every key of the sections, in their order. */
export function renderConfigTable(sections: readonly ConfigTableSection[], options: ConfigTableOptions = {}): string {
  const envOf = new Map(Object.entries(options.hostEnv ?? {}).map(([variable, name]) => [name, variable]));
  return [
    "| key | battery | kind | default | environment | what it does |",
    "|---|---|---|---|---|---|",
    ...sections.flatMap((section) => rows(section.schema.shape, "", section.owner, envOf)),
  ].join("\n");
}
