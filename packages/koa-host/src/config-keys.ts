/**
 * Which config keys exist. The host, each framework and each plugin declare the keys they read
 * (`configKeys`); the host checks the merged config, and every `environments` section, once at
 * start-up, so a misspelt key is an error with a suggestion instead of a silently ignored value.
 *
 * A declaration maps each key to `true` (any value; its reader checks the value) or to the
 * declaration of its block, whose keys are then checked too when the value is a plain object
 * (`{ bodyLimits: { json: true, form: true } }`). Declarations are merged, so several packages
 * may add keys to one block.
 */
import { closestName, isPlainObject } from "routing-kernel/plugin";
import type { ConfigKeys } from "./config-schema/keys.js";
import { E_CONFIG_UNKNOWN_KEY } from "./errors.js";
import { hostConfigSchema } from "./host-config-schema.js";

export type { ConfigKeys } from "./config-schema/keys.js";

/**
 * The keys the host itself reads, plus the keys environment variables set (`ENV_KEYS`), as
 * host-config-schema.ts declares them; the keys every framework reads the same way (`batteries`,
 * `autoMigrate`) are the app kit's. A battery declares its own in its schema.
 */
export const HOST_CONFIG_KEYS: ConfigKeys = hostConfigSchema.configKeys;

/**
 * Merges key declarations: a block declared twice gets both sets of keys; a key one package reads
 * as any value (`true`) stays open even if another declares it as a block.
 */
export function mergeConfigKeys(...declarations: ReadonlyArray<ConfigKeys | undefined>): ConfigKeys {
  const merged: Record<string, true | ConfigKeys> = {};
  for (const declaration of declarations) {
    if (!declaration) continue;
    for (const [key, value] of Object.entries(declaration)) {
      const current = merged[key];
      if (current === undefined) merged[key] = value;
      else if (current !== true) merged[key] = value === true ? true : mergeConfigKeys(current, value);
    }
  }
  return merged;
}

/**
 * Throws `E_CONFIG_UNKNOWN_KEY` for the first key of `config` (at any declared depth) that the
 * declaration does not list, or that is not in the app's `appKeys` (top level only). `where`
 * says which part of the config was checked (`lib/config.ts`, `environments.production`).
 */
export function validateConfigKeys(
  config: object,
  keys: ConfigKeys,
  where: string,
  appKeys: unknown = (config as { readonly appKeys?: unknown }).appKeys,
): void {
  const own = Array.isArray(appKeys) ? appKeys.filter((key): key is string => typeof key === "string") : [];
  checkBlock(config as Readonly<Record<string, unknown>>, keys, "", where, own);
}

function checkBlock(
  block: Readonly<Record<string, unknown>>,
  keys: ConfigKeys,
  prefix: string,
  where: string,
  own: readonly string[],
): void {
  for (const key of Object.keys(block)) {
    const declared = keys[key];
    if (declared === undefined) {
      if (prefix === "" && own.includes(key)) continue;
      const known = Object.keys(keys);
      throw new E_CONFIG_UNKNOWN_KEY(
        `${prefix}${key}`,
        where,
        known,
        closestName(key, prefix === "" ? [...known, ...own] : known),
      );
    }
    const value = block[key];
    if (declared !== true && isPlainObject(value)) checkBlock(value, declared, `${prefix}${key}.`, where, own);
  }
}
