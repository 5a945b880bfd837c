import { E_MAIL_LOG_IN_PRODUCTION, E_SERVICES_CONFIG_INVALID } from "./errors.js";
import type { BundleDeclarations } from "./assets/bundle.js";

/** The services' config keys, as read from the app's resolved config. */
export interface ServicesConfig {
  readonly env: string;
  readonly root: string;
  /** The app folder relative storage paths resolve against (a build's is the one it was built from); the root by default. */
  readonly appDir: string;
  readonly secretKey: string;
  /** `mailUrl` (`MAIL_URL`): unset means no mailer. */
  readonly mailUrl?: string;
  /** `mailFrom` (`MAIL_FROM`): the default sender. */
  readonly mailFrom?: string;
  /** `storageUrl` (`STORAGE_URL`), default `file:data/uploads`. */
  readonly storageUrl?: string;
  /** `storage.maxBytes`, `storage.allowedTypes`, `storage.publicPath`. */
  readonly storage: {
    readonly maxBytes?: number;
    readonly allowedTypes?: readonly string[];
    readonly publicPath: string;
  };
  /** `cacheUrl` (`CACHE_URL`), default `memory://`. */
  readonly cacheUrl?: string;
  /** `cache.sessionCookie`: requests carrying it are never served from the response cache. */
  readonly sessionCookie: string;
  /** `signalsUrl`, else `redisUrl` (`REDIS_URL`): the Redis that carries signals across processes. */
  readonly signalsUrl?: string;
  /** `signals.names` (the signals that cross processes) and `signals.prefix` (channel prefix). */
  readonly signals: { readonly names: readonly string[]; readonly prefix?: string };
  /** `static.dir`, `static.prefix`, `static.maxAge` (the host's keys) and `assets.bundles`, `assets.outDir`. */
  readonly assets: {
    readonly dir: string;
    readonly prefix: string;
    readonly maxAge: number;
    readonly bundles: BundleDeclarations;
    readonly outDir?: string;
  };
}

/** The config keys the services battery reads, for the host's start-up check of unknown keys. */
export const SERVICES_CONFIG_KEYS = Object.freeze({
  mailUrl: true,
  mailFrom: true,
  storageUrl: true,
  storage: Object.freeze({ publicPath: true, maxBytes: true, allowedTypes: true }),
  cacheUrl: true,
  cache: Object.freeze({ sessionCookie: true }),
  sessionCookie: true,
  signalsUrl: true,
  redisUrl: true,
  signals: Object.freeze({ names: true, prefix: true }),
  static: Object.freeze({ dir: true, prefix: true, maxAge: true }),
  // Bundle names are the app's own (`"app.js": [...]`): only the block's own keys are checked.
  assets: Object.freeze({ maxAge: true, bundles: true, outDir: true }),
} as const);

type Source = Readonly<Record<string, unknown>>;

function section(config: Source, key: string, name = key): Source {
  const value = config[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new E_SERVICES_CONFIG_INVALID(name, "an object");
  return value as Source;
}

function optionalString(source: Source, key: string, name = key): string | undefined {
  const value = source[key];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new E_SERVICES_CONFIG_INVALID(name, "a string");
  return value;
}

function optionalNumber(source: Source, key: string, name: string): number | undefined {
  const value = source[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new E_SERVICES_CONFIG_INVALID(name, "a number of 0 or more");
  return value;
}

function stringList(source: Source, key: string, name: string): readonly string[] | undefined {
  const value = source[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new E_SERVICES_CONFIG_INVALID(name, "a list of strings");
  }
  return value as string[];
}

/** Reads and checks the services' keys; a wrong shape is a start-up error naming the key. */
export function readServicesConfig(appConfig: object): ServicesConfig {
  // The app's AppConfig (an interface: no index signature) or any record; every value is checked below.
  const config = appConfig as Source;
  const root = optionalString(config, "root");
  if (!root) throw new E_SERVICES_CONFIG_INVALID("root", "the app's absolute folder");
  const storage = section(config, "storage");
  const cache = section(config, "cache");
  const signals = section(config, "signals");
  const statics = section(config, "static");
  const assets = section(config, "assets");
  const bundles = section(assets, "bundles", "assets.bundles") as BundleDeclarations;
  const read: ServicesConfig = {
    env: optionalString(config, "env") ?? "development",
    root,
    appDir: optionalString(config, "appDir") ?? root,
    secretKey: optionalString(config, "secretKey") ?? "",
    storage: {
      publicPath: optionalString(storage, "publicPath", "storage.publicPath") ?? "/uploads",
      ...(storage["maxBytes"] === undefined
        ? {}
        : { maxBytes: optionalNumber(storage, "maxBytes", "storage.maxBytes")! }),
      ...(storage["allowedTypes"] === undefined
        ? {}
        : { allowedTypes: stringList(storage, "allowedTypes", "storage.allowedTypes")! }),
    },
    sessionCookie:
      optionalString(cache, "sessionCookie", "cache.sessionCookie") ??
      optionalString(config, "sessionCookie") ??
      "session",
    signals: {
      names: stringList(signals, "names", "signals.names") ?? [],
      ...(signals["prefix"] === undefined ? {} : { prefix: optionalString(signals, "prefix", "signals.prefix")! }),
    },
    assets: {
      dir: optionalString(statics, "dir", "static.dir") ?? "static",
      prefix: optionalString(statics, "prefix", "static.prefix") ?? "/static",
      maxAge:
        optionalNumber(assets, "maxAge", "assets.maxAge") ?? optionalNumber(statics, "maxAge", "static.maxAge") ?? 60,
      bundles,
      ...(assets["outDir"] === undefined ? {} : { outDir: optionalString(assets, "outDir", "assets.outDir")! }),
    },
  };
  const urls: Record<string, string | undefined> = {
    mailUrl: optionalString(config, "mailUrl"),
    mailFrom: optionalString(config, "mailFrom"),
    storageUrl: optionalString(config, "storageUrl"),
    cacheUrl: optionalString(config, "cacheUrl"),
    signalsUrl: optionalString(config, "signalsUrl") ?? optionalString(config, "redisUrl"),
  };
  // The log transport prints every mail, sign-in and reset links included, and delivers none (the
  // memory one, for tests, delivers none either): never what production sends through.
  const scheme = /^(log|memory):/.exec(urls["mailUrl"]?.trim().toLowerCase() ?? "")?.[0];
  if (read.env === "production" && scheme) throw new E_MAIL_LOG_IN_PRODUCTION(scheme);
  const defined = Object.fromEntries(Object.entries(urls).filter(([, value]) => value !== undefined));
  return { ...read, ...defined };
}
