import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RouteTable } from "routing-kernel";
import { augmentedModule, ROUTE_TYPES_FILE, routeTypesSource } from "./generate.js";

/** What {@link writeRouteTypes} did. */
export interface RouteTypesResult {
  /** The absolute path of the declaration. */
  readonly file: string;
  /** False when the file already held exactly this text (it is then left untouched). */
  readonly changed: boolean;
}

/**
 * Writes the app's route declaration (`<root>/types/routes.d.ts`) for the framework module
 * `moduleName`. The file is rewritten only when its text changes, so editors and watchers see no
 * change on a restart that changed no route.
 */
export function writeRouteTypes(root: string, table: RouteTable, moduleName: string): RouteTypesResult {
  const file = join(root, ROUTE_TYPES_FILE);
  const text = routeTypesSource(table, moduleName);
  if (existsSync(file) && readFileSync(file, "utf8") === text) return { file, changed: false };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return { file, changed: true };
}

/**
 * The development server's refresh: when the app has a generated declaration (the user ran the
 * routes command with `--types` once), rewrite it from the table just built. An app without one
 * is left alone: nothing is written into a project that did not ask for it.
 */
export function refreshRouteTypes(root: string, table: RouteTable): RouteTypesResult | undefined {
  const file = join(root, ROUTE_TYPES_FILE);
  if (!existsSync(file)) return undefined;
  const moduleName = augmentedModule(readFileSync(file, "utf8"));
  return moduleName === undefined ? undefined : writeRouteTypes(root, table, moduleName);
}
