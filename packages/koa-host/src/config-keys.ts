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
import type { HostConfig } from "./config.js";
import type { ConfigKeys } from "./config-schema/keys.js";
import { E_CONFIG_UNKNOWN_KEY } from "./errors.js";
import { PRODUCTION_DEFAULTS } from "./production/settings.js";

export type { ConfigKeys } from "./config-schema/keys.js";

/**
 * The keys the host itself reads, plus the keys environment variables set (`ENV_KEYS`); the keys
 * every framework reads the same way (`batteries`, `autoMigrate`) are the app kit's. A package adding host keys
 * (production settings, health paths...) adds them here; a battery declares its own in its plugin.
 */
export const HOST_CONFIG_KEYS = Object.freeze({
  env: true,
  root: true,
  appDir: true,
  secretKey: true,
  logLevel: true,
  logRequests: true,
  logTime: true,
  bodyLimits: Object.freeze({ json: true, form: true, text: true, fileSize: true }),
  static: Object.freeze({ dir: true, prefix: true, maxAge: true }),
  basePath: true,
  baseUrl: true,
  // Who the development tools (mail previews, the dev jobs dashboard, the docs page) answer.
  devTools: Object.freeze({ remote: true }),
  // The production keys (trustProxy, health paths...): declared where their defaults are.
  ...(Object.fromEntries(Object.keys(PRODUCTION_DEFAULTS).map((key) => [key, true as const])) as {
    readonly [Key in keyof typeof PRODUCTION_DEFAULTS]: true;
  }),
  // The app's display name (scaffolds, layouts) and the app's own keys (see validateConfigKeys).
  appName: true,
  appKeys: true,
  environments: true,
  // Set from environment variables by the host (ENV_KEYS), whichever battery reads them.
  dbUrl: true,
  sessionUrl: true,
  cacheUrl: true,
  mailUrl: true,
  storageUrl: true,
  redisUrl: true,
  queueUrl: true,
  realtimeUrl: true,
  mailFrom: true,
  timezone: true,
} as const satisfies ConfigKeys);

// Compile-time: the run-time declaration and the typed shape list the same keys.
const hostKeysAgree: ConfigKeysAgree<typeof HOST_CONFIG_KEYS, HostConfig & { readonly environments?: unknown }> = true;
void hostKeysAgree;

/** The object part of a config value's type (a block's own keys), without scalars, lists and functions. */
type BlockOf<T> = Exclude<
  NonNullable<T>,
  boolean | string | number | readonly unknown[] | ((...args: never[]) => unknown)
>;

/** Keys declared but not typed (neither in `Shape` nor in `Host`), or typed but not declared. */
type OwnMismatch<Keys, Shape, Host> =
  | Exclude<keyof Keys & string, keyof Shape | keyof Host>
  | Exclude<keyof Shape & string, keyof Keys>;

/** The value type a key has in the shape, else in the host's keys. */
type TypedValue<Key, Shape, Host> = Key extends keyof Shape ? Shape[Key] : Key extends keyof Host ? Host[Key] : never;

/** The keys (dotted inside blocks, one level deep) on which a run-time declaration and a typed shape disagree. */
type KeyMismatch<Keys, Shape, Host> =
  | OwnMismatch<Keys, Shape, Host>
  | {
      [Key in keyof Keys & string]: Keys[Key] extends true
        ? never
        : `${Key}.${OwnMismatch<Keys[Key], BlockOf<TypedValue<Key, Shape, Host>>, {}>}`;
    }[keyof Keys & string];

/**
 * `true` when a package's `*_CONFIG_KEYS` (its run-time declaration, `Keys`) lists exactly the keys
 * of its typed shape (`Shape`, the interface it adds to {@link AppConfig} by module augmentation),
 * at every declared depth; else a type naming the keys that disagree. A package writes
 * `const agree: ConfigKeysAgree<typeof MY_CONFIG_KEYS, MyAppConfig> = true;` so the two cannot drift.
 * Keys of the host's own (`secretKey`, `static`...) may be declared without being typed again.
 */
export type ConfigKeysAgree<Keys, Shape> = [KeyMismatch<Keys, Shape, HostConfig>] extends [never]
  ? true
  : { readonly disagreeingKeys: KeyMismatch<Keys, Shape, HostConfig> };

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
