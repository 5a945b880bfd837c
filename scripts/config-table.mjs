#!/usr/bin/env node
// The configuration table of docs/configuration.md, rendered from the config schemas (the host's,
// the frameworks', each battery's `defineBattery({ config })`, fw-b's), so the docs list exactly the keys that are read, with their
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

const load = (file) => import(pathToFileURL(join(root, file)).href);

/**
 * Every config schema, with the package or battery that owns it, in the table's order: the host's
 * keys, the keys both frameworks read, each battery of the kit as `defineBattery` declares it
 * (app-kit's DEFAULT_BATTERIES: a new battery needs no line here), then fw-b's own keys. A key the
 * host declares only because an environment variable sets it for a battery (`SESSION_URL`) is
 * shown once, in the battery's rows.
 */
export async function configSections() {
  const { hostConfigSchema } = await load("packages/koa-host/dist/host-config-schema.js");
  const { openApiConfigSchema } = await load("packages/koa-host/dist/openapi/config-schema.js");
  const { DEFAULT_BATTERIES, frameworkConfigSchema } = await load("packages/app-kit/dist/index.js");
  const { i18nConfigSchema } = await load("packages/services/dist/config-schema.js");
  const { fwbConfigSchema } = await load("packages/fw-b/dist/config-schema.js");
  const others = [
    { owner: "host (openapi)", schema: openApiConfigSchema },
    { owner: "frameworks", schema: frameworkConfigSchema },
    { owner: "frameworks (i18n)", schema: i18nConfigSchema },
    ...DEFAULT_BATTERIES.filter((battery) => battery.config).map((battery) => ({
      owner: battery.key,
      schema: battery.config,
    })),
    { owner: "fw-b", schema: fwbConfigSchema },
  ];
  const elsewhere = new Set(others.flatMap((section) => Object.keys(section.schema.shape)));
  const hostShape = Object.fromEntries(Object.entries(hostConfigSchema.shape).filter(([name]) => !elsewhere.has(name)));
  return [{ owner: "host", schema: { ...hostConfigSchema, shape: hostShape } }, ...others];
}

/** The table as the schemas render it. */
export async function renderTable() {
  const { renderConfigTable } = await load("packages/koa-host/dist/config-schema/table.js");
  const { ENV_KEYS } = await load("packages/koa-host/dist/config.js");
  return renderConfigTable(await configSections(), { hostEnv: ENV_KEYS });
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
