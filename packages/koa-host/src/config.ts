import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { closestName, isPlainObject } from "routing-kernel/plugin";
import { mergeConfig } from "./config-merge.js";
import { appFolderOf } from "./app-folder.js";
import { loadEnvFiles, TEST_VARIABLES } from "./env-file.js";
import { assertStrongSecret } from "./secret-strength.js";
import { assertTestDatabase, TEST_DB_URL_DEFAULT } from "./test-database.js";
import { E_CONFIG_INVALID, E_CONFIG_UNKNOWN_ENV, E_MISSING_SECRET_KEY } from "./errors.js";
import type { InputOf, ResolvedOf } from "./config-schema/schema.js";
import { DEVELOPMENT_SECRET, HOST_ENV_KEYS, hostConfigSchema } from "./host-config-schema.js";
import { importAppModule } from "@fwkit/battery-kit";

type HostSchema = typeof hostConfigSchema;

/** Size limits of the body parsers (bytes, or strings such as `"1mb"` for JSON/form/text; `fileSize` in bytes). */
export interface BodyLimits extends ResolvedBodyLimits {}

type ResolvedBodyLimits = ResolvedOf<HostSchema>["bodyLimits"];

/** The keys every app's config holds from the start: the schema's defaults for the environment. */
function hostDefaults(root: string, env: string) {
  const source = { env, root };
  const read = <Name extends keyof HostSchema["shape"] & string>(name: Name) =>
    hostConfigSchema.resolveKey(name, source, { env: {} });
  return {
    env,
    root,
    secretKey: read("secretKey"),
    logLevel: read("logLevel"),
    logRequests: read("logRequests"),
    bodyLimits: read("bodyLimits"),
    static: read("static"),
  };
}

/** The keys {@link hostDefaults} always sets. */
type DefaultedKey = keyof ReturnType<typeof hostDefaults>;

/**
 * The host's own config keys as read, typed from their declaration (host-config-schema.ts): the
 * keys the host's defaults set (the environment, the root, the secret key, the log level and
 * request log, the body limits and static files) as resolved, the others as an app writes them.
 * Values set from environment variables (`ENV_KEYS`) are strings.
 */
export interface HostConfig
  extends Omit<InputOf<HostSchema>, DefaultedKey | "environments">,
    Pick<ResolvedOf<HostSchema>, DefaultedKey> {}

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

/** The defaults every app starts from. */
export function defaultConfig(root: string, env: string): AppConfig {
  const config: HostConfig = {
    ...hostDefaults(root, env),
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
  // The app's prefix as links and routes are built from it: without its trailing slash.
  if (typeof merged.basePath === "string") Object.assign(merged, { basePath: merged.basePath.replace(/\/+$/, "") });
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
      module = await importAppModule(file);
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
