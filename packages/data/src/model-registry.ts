/**
 * Binds models to a connection. Apps only declare models in lib/models.ts; the framework calls
 * `loadModels(root, knex)` at start-up, which imports that file and binds every exported model.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Knex } from "knex";
import { E_MODELS_LOAD } from "./errors.js";
import { isModel } from "./model.js";
import type { BaseRow, Model } from "./model-types.js";
import { importAppModule } from "@fwkit/battery-kit";

/** The files looked for, in order, under the app root. */
export const MODEL_FILES = ["lib/models.ts", "lib/models.mts", "lib/models.js", "lib/models.mjs"] as const;

/** Binds every model among `exports` (a module namespace or a plain object) and returns them by export name. */
export function bindModels(knex: Knex, exports: Readonly<Record<string, unknown>>): Record<string, Model<BaseRow>> {
  const bound: Record<string, Model<BaseRow>> = {};
  for (const [name, value] of Object.entries(exports)) {
    if (!isModel(value)) continue;
    value.bind(knex);
    bound[name] = value;
  }
  return bound;
}

/** The app's models file, or undefined when it has none. */
export function findModelsFile(root: string): string | undefined {
  return MODEL_FILES.map((file) => join(root, file)).find((file) => existsSync(file));
}

/**
 * Imports `<root>/lib/models.ts` (or .mts/.js/.mjs) when present and binds every exported model.
 * Returns the bound models by export name (empty when the app has no models file).
 */
export async function loadModels(root: string, knex: Knex): Promise<Record<string, Model<BaseRow>>> {
  const file = findModelsFile(root);
  if (!file) return {};
  let exports: Record<string, unknown>;
  try {
    exports = await importAppModule(file);
  } catch (error) {
    throw new E_MODELS_LOAD(file, error instanceof Error ? error.message : String(error));
  }
  return bindModels(knex, exports);
}
