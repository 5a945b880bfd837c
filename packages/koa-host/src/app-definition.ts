import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { E_APP_NOT_FOUND, E_UNKNOWN_APP } from "./errors.js";
import type { Host } from "./host-types.js";
import { registerTypeScript } from "./typescript.js";
import { importAppModule } from "@fwkit/battery-kit";

/** Options a CLI passes when it builds an app. */
export interface CreateOverrides {
  /** Config keys that win over the app's own (e.g. `{ env: "test" }`). */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Serve the app under this URL prefix (set when it is mounted inside another app). */
  readonly basePath?: string;
}

/**
 * What an app entry (`app.ts`) exports: `export const app = defineApp({ root: import.meta.dirname })`,
 * or several as `export const apps = { blog: defineApp(...), admin: defineApp(...) }`. Building is
 * deferred so the CLI can list routes or run migrations without listening.
 */
export interface AppDefinition {
  /** The app folder. */
  readonly root: string;
  /** The app's name in a multi-application codebase. */
  readonly name?: string;
  /** Builds the app (config, views, route table, plugins). */
  create(overrides?: CreateOverrides): Promise<Host>;
}

const ENTRY_FILES = ["app.ts", "app.mts", "app.js", "app.mjs"];

/** The app entry file of a folder, if any. */
export function findAppEntry(root: string): string | undefined {
  for (const name of ENTRY_FILES) {
    const file = join(root, name);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * Imports `<root>/app.ts` and returns the app to serve: `app`, or `apps[name]` where the name comes
 * from `appName`, then `APP_NAME`, then the first declared app. `typescript: false` (a built app
 * under `start`) imports plain JavaScript without registering the TypeScript loader.
 */
export async function loadAppDefinition(
  root: string,
  appName?: string,
  options: { readonly typescript?: boolean } = {},
): Promise<AppDefinition> {
  const absolute = resolve(root);
  const entry = findAppEntry(absolute);
  if (!entry) {
    throw new E_APP_NOT_FOUND(
      absolute,
      `there is no ${ENTRY_FILES.join(", ")}; run the init command of your framework first, or pass --root`,
    );
  }
  if (options.typescript !== false) await registerTypeScript(absolute);
  let module: Record<string, unknown>;
  try {
    module = await importAppModule(entry);
  } catch (error) {
    throw new E_APP_NOT_FOUND(entry, (error as Error).stack ?? String(error));
  }
  const wanted = appName ?? process.env["APP_NAME"];
  const apps = module["apps"] as Record<string, AppDefinition> | undefined;
  if (apps && typeof apps === "object") {
    const names = Object.keys(apps);
    const name = wanted ?? names[0];
    const found = name === undefined ? undefined : apps[name];
    if (!found) throw new E_UNKNOWN_APP(String(name), names.join(", ") || "(none)");
    return found;
  }
  const app = module["app"] as AppDefinition | undefined;
  if (!app || typeof app.create !== "function") {
    throw new E_APP_NOT_FOUND(entry, "it must export `app` (defineApp(...)) or `apps` ({ name: defineApp(...) })");
  }
  if (wanted && app.name && wanted !== app.name) throw new E_UNKNOWN_APP(wanted, app.name);
  return app;
}
