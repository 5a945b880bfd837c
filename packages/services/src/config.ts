/**
 * The services' configuration, read once at start-up from the keys declared in config-schema.ts,
 * plus what joins keys: the host's `env`, `root` and `appDir`, the signals' Redis (`signalsUrl`,
 * else `redisUrl`), the assets' `max-age` (else the static files'), and no log mailer in production.
 */
import type { ResolvedOf } from "@fwkit/koa-host/config-schema";
import { servicesConfigSchema } from "./config-schema.js";
import { E_MAIL_LOG_IN_PRODUCTION, E_SERVICES_CONFIG_INVALID } from "./errors.js";

type Resolved = ResolvedOf<typeof servicesConfigSchema>;

/** The entries of a resolved block that are set (a key without a default resolves to `undefined`). */
type SetEntries<T> = { readonly [Key in keyof T]?: Exclude<T[Key], undefined> };

/**
 * The services' config keys, as read from the app's resolved config (types from the schema): the
 * keys without a default are absent when unset, and the joined ones are resolved once.
 */
export interface ServicesConfig
  extends SetEntries<Pick<Resolved, "mailUrl" | "mailFrom" | "storageUrl" | "cacheUrl" | "signalsUrl">> {
  readonly env: string;
  readonly root: string;
  /** The app folder relative storage paths resolve against (a build's is the one it was built from); the root by default. */
  readonly appDir: string;
  readonly secretKey: string;
  /** `storage.maxBytes`, `storage.allowedTypes`, `storage.publicPath`. */
  readonly storage: Pick<Resolved["storage"], "publicPath"> & SetEntries<Omit<Resolved["storage"], "publicPath">>;
  /** `cache.sessionCookie`, else `sessionCookie`: requests carrying it are never served from the response cache. */
  readonly sessionCookie: string;
  /** `signals.names` (the signals that cross processes) and `signals.prefix` (channel prefix). */
  readonly signals: Pick<Resolved["signals"], "names"> & SetEntries<Omit<Resolved["signals"], "names">>;
  /** `static.dir`, `static.prefix`, `static.maxAge` (the host's keys) and `assets.bundles`, `assets.outDir`. */
  readonly assets: Pick<Resolved["static"], "dir" | "prefix"> &
    Pick<Resolved["assets"], "bundles"> &
    SetEntries<Pick<Resolved["assets"], "outDir">> & {
      /** `assets.maxAge`, else `static.maxAge`, else 60 seconds. */
      readonly maxAge: number;
    };
}

/** The config keys the services battery reads, for the host's start-up check of unknown keys. */
export const SERVICES_CONFIG_KEYS = servicesConfigSchema.configKeys;

/** The entries of `values` that are set (the resolved config has `undefined` for keys without a default). */
function defined<T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

/** Reads and checks the services' keys; a wrong shape is a start-up error naming the key. */
export function readServicesConfig(appConfig: object): ServicesConfig {
  // The app's AppConfig (an interface: no index signature) or any record; every value is checked.
  const config = appConfig as Readonly<Record<string, unknown>>;
  const host = (name: string): string | undefined => {
    const value = config[name];
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string") throw new E_SERVICES_CONFIG_INVALID(name, "a string");
    return value;
  };
  const root = host("root");
  if (!root) throw new E_SERVICES_CONFIG_INVALID("root", "the app's absolute folder");
  const read: Resolved = servicesConfigSchema.resolve(config, { env: {} });
  const env = host("env") ?? "development";
  // The log transport prints every mail, sign-in and reset links included, and delivers none (the
  // memory one, for tests, delivers none either): never what production sends through.
  const scheme = /^(log|memory):/.exec(read.mailUrl?.trim().toLowerCase() ?? "")?.[0];
  if (env === "production" && scheme) throw new E_MAIL_LOG_IN_PRODUCTION(scheme);
  return {
    env,
    root,
    appDir: host("appDir") ?? root,
    secretKey: host("secretKey") ?? "",
    storage: {
      publicPath: read.storage.publicPath,
      ...defined({ maxBytes: read.storage.maxBytes, allowedTypes: read.storage.allowedTypes }),
    },
    sessionCookie: read.cache.sessionCookie ?? read.sessionCookie ?? "session",
    signals: { names: read.signals.names, ...defined({ prefix: read.signals.prefix }) },
    assets: {
      dir: read.static.dir,
      prefix: read.static.prefix,
      maxAge: read.assets.maxAge ?? read.static.maxAge ?? 60,
      bundles: read.assets.bundles,
      ...defined({ outDir: read.assets.outDir }),
    },
    ...defined({
      mailUrl: read.mailUrl,
      mailFrom: read.mailFrom,
      storageUrl: read.storageUrl,
      cacheUrl: read.cacheUrl,
      signalsUrl: read.signalsUrl ?? read.redisUrl,
    }),
  };
}
