#!/usr/bin/env node
// The configuration table of docs/configuration.md, rendered from the batteries' config schemas
// (each battery's `defineConfigSchema`), so the docs list exactly the keys that are read, with their
// kinds, defaults and environment variables. Reads the built packages (`pnpm build` first).
// test/config-table.test.ts fails when the table in the doc is out of date.
//
//   node scripts/config-table.mjs check|update
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The doc the table lives in, and the comments around the generated region. */
export const DOC = join(root, "docs", "configuration.md");
export const START = "<!-- config-table:start (generated: node scripts/config-table.mjs update) -->";
export const END = "<!-- config-table:end -->";

/** Each schema: the package that owns it, its built module and export. A battery adds one line here. */
export const SCHEMAS = [
  { owner: "host", module: "packages/koa-host/dist/production/config-schema.js", name: "productionConfigSchema" },
  { owner: "security", module: "packages/security/dist/config-schema.js", name: "securityConfigSchema" },
  { owner: "data", module: "packages/data/dist/config-schema.js", name: "dataConfigSchema" },
  { owner: "services", module: "packages/services/dist/config-schema.js", name: "servicesConfigSchema" },
  { owner: "services (i18n)", module: "packages/services/dist/config-schema.js", name: "i18nConfigSchema" },
  { owner: "observability", module: "packages/observability/dist/config-schema.js", name: "observabilityConfigSchema" },
];

const load = (file) => import(pathToFileURL(join(root, file)).href);

/** The table as the schemas render it. */
export async function renderTable() {
  const { renderConfigTable } = await load("packages/koa-host/dist/config-schema/table.js");
  const sections = [];
  for (const entry of SCHEMAS) {
    const schema = (await load(entry.module))[entry.name];
    if (!schema) throw new Error(`${entry.module} exports no ${entry.name}`);
    sections.push({ owner: entry.owner, schema });
  }
  const { ENV_KEYS } = await load("packages/koa-host/dist/config.js");
  return renderConfigTable(sections, { hostEnv: ENV_KEYS });
}

/** The doc with its generated region replaced by `table`. */
export function withTable(doc, table) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DOC} has no ${START} ... ${END} region`);
  return `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const mode = process.argv[2] ?? "check";
  const doc = readFileSync(DOC, "utf8");
  const next = withTable(doc, await renderTable());
  if (mode === "update") {
    if (next !== doc) writeFileSync(DOC, next);
    console.log(next === doc ? "configuration table: up to date" : "configuration table: rewritten");
  } else if (next !== doc) {
    console.error("docs/configuration.md's configuration table is out of date: node scripts/config-table.mjs update");
    process.exit(1);
  } else console.log("configuration table: up to date");
}
