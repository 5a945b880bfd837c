import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { closestName, isPlainObject } from "routing-kernel/plugin";
import { mergeConfig } from "./config-merge.js";
import { appFolderOf } from "./app-folder.js";
import { loadEnvFiles, TEST_VARIABLES } from "./env-file.js";
import { assertStrongSecret } from "./secret-strength.js";
import { assertTestDatabase, TEST_DB_URL_DEFAULT } from "./test-database.js";
import { E_CONFIG_INVALID, E_CONFIG_UNKNOWN_ENV, E_MISSING_SECRET_KEY } from "./errors.js";
import { HOST_ENV_KEYS } from "./host-config-schema.js";
import type { ProductionConfigInput } from "./production/config-schema.js";

/** Size limits of the body parsers (bytes, or strings such as `"1mb"` for JSON/form/text). */
export interface BodyLimits {
  readonly json: string | number;
  readonly form: string | number;
  readonly text: string | number;
  /** Largest uploaded file, in bytes. */
  readonly fileSize: number;
}

/**
 * The host's own config keys as read (declared, with their docs and environment variables, in
 * host-config-schema.ts; a compile-time check in config-keys.ts keeps the two lists of names equal).
 * Values set from environment variables (`ENV_KEYS`) are strings.
 */
export interface HostConfig extends ProductionConfigInput {
  /** `development` (default), `test`, `production` or one the app's `environments` declares, from `APP_ENV`. */
  readonly env: string;
  /** Signs cookies and tokens; required in production. */
  readonly secretKey: string;
  /** The app's root folder (absolute). */
  readonly root: string;
  /**
   * The app folder (absolute; set by the host, not by the app): relative paths in config resolve
   * against it (the SQLite file, local storage and session folders) and its `.env` file is read.
   * The same as `root`, except in a build or release folder, whose app folder is the one it was
   * built from (see app-folder.ts).
   */
  readonly appDir?: string;
  /** pino level: `debug` in development, `info` otherwise (`LOG_LEVEL`). */
  readonly logLevel: string;
  /** Log one line per request (at level info). */
  readonly logRequests: boolean;
  /** How log lines write their time: `"iso"` (default, `2026-11-27T15:58:52.998Z`) or `"epoch"` (milliseconds). */
  readonly logTime?: "iso" | "epoch";
  /** Body parser limits. */
  readonly bodyLimits: BodyLimits;
  /** Static files: folder under the root, URL prefix and `max-age` in seconds. */
  readonly static: { readonly dir: string; readonly prefix: string; readonly maxAge: number };
  /** A URL prefix the whole app lives under (multi-application). */
  readonly basePath?: string;
  /**
   * The app's public address (`https://shop.example.com`, `BASE_URL`): every absolute link in a
   * mail is built from it, never from the request's Host. Required in production by what mails links.
   */
  readonly baseUrl?: string;
  /**
   * The development tools (`/_mail`, the jobs dashboard of development, the OpenAPI page when on
   * by default) answer only clients on this machine; `{ remote: true }` opens them to others.
   */
  readonly devTools?: { readonly remote?: boolean };
  /** The app's display name (scaffolds, layouts, mail). */
  readonly appName?: string;
  /** Config keys the app reads itself, so the start-up check of unknown keys accepts them. */
  readonly appKeys?: readonly string[];
  /** The database URL (`DB_URL`), read by the data battery; default `sqlite:data/app.db`. */
  readonly dbUrl?: string;
  /** Where sessions live (`SESSION_URL`), read by the security battery. */
  readonly sessionUrl?: string;
  /** The cache (`CACHE_URL`), read by the services battery. */
  readonly cacheUrl?: string;
  /** The mailer (`MAIL_URL`), read by the services battery. */
  readonly mailUrl?: string;
  /** File storage (`STORAGE_URL`), read by the services battery. */
  readonly storageUrl?: string;
  /** Redis for signals and more (`REDIS_URL`). */
  readonly redisUrl?: string;
  /**
   * The job queue (`QUEUE_URL`), read by the jobs battery: `redis://...` (BullMQ, what production
   * uses), `memory:` (in the process, the development default) or `sync:` (each job runs as it is
   * dispatched).
   */
  readonly queueUrl?: string;
  /**
   * Realtime channels' backend (`REALTIME_URL`), read by the realtime battery: `memory:` (one
   * process) or `redis://...` (broadcasts reach every worker and node).
   */
  readonly realtimeUrl?: string;
  /** The default sender of mail (`MAIL_FROM`). */
  readonly mailFrom?: string;
  /** IANA time zone dates are shown in (`TIMEZONE`). */
  readonly timezone?: string;
}

/**
 * The resolved configuration of an app: the host's keys plus every battery's. There is no index
 * signature: each battery adds its keys by module augmentation, so a misspelt key in
 * `defineConfig({...})` is a compile error (JavaScript users get `E_CONFIG_UNKNOWN_KEY` at start-up):
 *
 *   declare module "@fwkit/koa-host" { interface AppConfig extends SecurityAppConfig {} }
 *
 * An app that reads keys of its own lists them in `appKeys` and may type them the same way
 * (`declare module "fw-a" { interface AppConfig { stripeKey?: string } }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface -- filled in by the batteries' declarations
export interface AppConfig extends HostConfig {}

/**
 * The app's services as code outside a request reaches them: a job's `context.services`. Empty
 * here; the services battery adds `mailer`, `storage`, `cache`... by module augmentation (as
 * batteries add their keys to {@link AppConfig}).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the services battery's declaration (module augmentation)
export interface AppServices {}

/**
 * A config layer as a file writes it: every key optional, and a plain-object section (`bodyLimits`,
 * `static`...) may give only some of its keys, since layers merge deeply. Arrays and functions are
 * whole values.
 */
export type ConfigLayer<T> = {
  readonly [K in keyof T]?: T[K] extends (...args: never[]) => unknown
    ? T[K]
    : T[K] extends readonly unknown[]
      ? T[K]
      : T[K] extends object
        ? ConfigLayer<T[K]>
        : T[K];
};

/** What an app's `lib/config.ts` exports as `config`: keys, plus per-environment overrides. */
export type ConfigInput = ConfigLayer<Omit<AppConfig, "root" | "env">> & {
  readonly environments?: Readonly<Record<string, ConfigLayer<Omit<AppConfig, "root" | "env">>>>;
};

/** Environment variables that set config keys (the twelve-factor way): each key's `env` in host-config-schema.ts. */
export const ENV_KEYS: Readonly<Record<string, string>> = HOST_ENV_KEYS;

const DEVELOPMENT_SECRET = "insecure-development-secret-key-change-me";

/** The defaults every app starts from. */
export function defaultConfig(root: string, env: string): AppConfig {
  const config: HostConfig = {
    env,
    root,
    secretKey: env === "production" ? "" : DEVELOPMENT_SECRET,
    logLevel: env === "development" ? "debug" : env === "test" ? "warn" : "info",
    logRequests: true,
    bodyLimits: { json: "1mb", form: "1mb", text: "1mb", fileSize: 10 * 1024 * 1024 },
    static: { dir: "static", prefix: "/static", maxAge: env === "production" ? 3600 : 0 },
    // Tests delete rows: their default database is a new one in memory, never the development file.
    dbUrl: env === "test" ? TEST_DB_URL_DEFAULT : "sqlite:data/app.db",
    // Tests send no real mail: the memory transport keeps it for the test client (`client.mail`).
    ...(env === "test" ? { mailUrl: "memory:", mailFrom: "App <app@example.test>" } : {}),
    // Jobs run in the process in development, so `npm run dev` needs no Redis; elsewhere QUEUE_URL says.
    ...(env === "development" ? { queueUrl: "memory:" } : {}),
  };
  return config;
}

/** The environments every app knows; others must be declared under `environments` in lib/config.ts. */
export const KNOWN_ENVIRONMENTS: readonly string[] = Object.freeze(["development", "test", "production"]);

const SECTIONS = Symbol.for("koa-host.configSections");

/**
 * Resolves an app's configuration: the app folder's `.env` file fills in environment variables
 * that are not set, then defaults, `lib/config.ts` (its `config` export), its
 * `environments[APP_ENV]` section, environment variables and `overrides` are merged in that order
 * (plain objects deeply, arrays and other values replaced). Without `APP_ENV` the environment is
 * `production` when `NODE_ENV=production` (as `start`, so a command never takes a production
 * database for a development one), else `development`. An `APP_ENV` that is neither a
 * documented environment nor declared under `environments` is a start-up error, as is a missing
 * secret key in production. The `test` environment reads `.env.test` over `.env`, takes its database
 * from `TEST_DB_URL` (default SQLite in memory), never from `DB_URL`, and refuses one that could be
 * the development database (see test-database.ts).
 */
export async function loadConfig(
  root: string,
  overrides: Readonly<Record<string, unknown>> = {},
  environment: NodeJS.ProcessEnv = process.env,
): Promise<AppConfig> {
  const absolute = resolve(root);
  // A build's data and .env live in the app folder it was built from, not in the build.
  const appDir = appFolderOf(absolute);
  const override = overrides["env"] === undefined ? undefined : String(overrides["env"]);
  const files = loadEnvFiles(appDir, environment, override);
  const fromFile = await readConfigFile(absolute);
  const { environments: declared, ...base } = fromFile;
  if (declared !== undefined && !isPlainObject(declared))
    throw new E_CONFIG_INVALID(
      join(absolute, "lib"),
      "`environments` must be an object of sections: { production: { ... } }",
    );
  const environments = (declared ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, section] of Object.entries(environments)) {
    if (!isPlainObject(section))
      throw new E_CONFIG_INVALID(join(absolute, "lib"), `environments.${name} must be an object of config keys`);
  }
  const env = files.env;
  const known = [...new Set([...KNOWN_ENVIRONMENTS, ...Object.keys(environments)])];
  if (!known.includes(env)) throw new E_CONFIG_UNKNOWN_ENV(env, known, closestName(env, known));
  const fromEnv: Record<string, unknown> = {};
  for (const [variable, key] of Object.entries(ENV_KEYS)) {
    // The test environment never takes the development database or mail server: TEST_DB_URL, TEST_MAIL_URL.
    const value = environment[(env === "test" ? TEST_VARIABLES[variable] : undefined) ?? variable];
    if (value !== undefined && value !== "") fromEnv[key] = value;
  }
  const merged = mergeConfig(
    defaultConfig(absolute, env) as unknown as Readonly<Record<string, unknown>>,
    base as Readonly<Record<string, unknown>>,
    environments[env],
    fromEnv,
    overrides,
    { env, root: absolute, appDir },
  ) as unknown as AppConfig;
  if (env === "production" && (!merged.secretKey || merged.secretKey === DEVELOPMENT_SECRET)) {
    throw new E_MISSING_SECRET_KEY();
  }
  if (env === "production") assertStrongSecret("SECRET_KEY (secretKey)", String(merged.secretKey));
  if (env === "test" && typeof merged.dbUrl === "string") assertTestDatabase(merged.dbUrl, files.developmentDbUrls);
  // The other environments' sections, kept out of sight, so the start-up key check covers them too.
  Object.defineProperty(merged, SECTIONS, { value: Object.freeze({ ...environments }), enumerable: false });
  return Object.freeze(merged);
}

/** The `environments` sections of the config file a config was loaded from (for the start-up key check). */
export function environmentSections(config: AppConfig): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
  return (
    (config as unknown as Record<symbol, Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined>)[
      SECTIONS
    ] ?? {}
  );
}

async function readConfigFile(root: string): Promise<ConfigInput> {
  for (const name of ["config.ts", "config.mts", "config.js", "config.mjs"]) {
    const file = join(root, "lib", name);
    if (!existsSync(file)) continue;
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      throw new E_CONFIG_INVALID(file, (error as Error).message);
    }
    const config = module["config"];
    if (config === undefined) return {};
    if (typeof config !== "object" || config === null) throw new E_CONFIG_INVALID(file, "`config` must be an object");
    return config as ConfigInput;
  }
  return {};
}

/**
 * Declares an app's configuration with type checking (identity function). The object is checked
 * against {@link ConfigInput}, so a key nothing declared is a compile error; the app's own keys are
 * accepted when `appKeys` lists them (`defineConfig({ appKeys: ["stripeKey"], stripeKey: "..." })`).
 */
export function defineConfig<const Own extends string = never>(
  config: ConfigInput & { readonly appKeys?: readonly Own[] } & { readonly [Key in NoInfer<Own>]?: unknown },
): ConfigInput {
  return config;
}
