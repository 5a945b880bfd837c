/**
 * The options of `createApp` / `defineApp`, one list for every framework: the same names for the
 * same things, and the names one seed gave an option kept as aliases (accepted, documented in
 * docs/configuration.md "Same thing, same name", tested in test/same-names.test.ts), never two
 * implementations. Mounting other apps is done here too, so both frameworks mount the same way.
 */
import type { AppConfig, Host } from "@fwkit/koa-host";
import type { HostOptions } from "@fwkit/koa-host/plugin";
import type { AppDefinition, CreateOverrides } from "@fwkit/koa-host";
import type { HostPlugin } from "@fwkit/koa-host/plugin";
import { checkOptionKeys, type ViewModule } from "routing-kernel";
import type { AuthOptions } from "./battery.js";
import { E_OPTION_ALIAS_TWICE } from "./errors.js";

/** Options of a framework's `createApp` and `defineApp`. */
export interface AppOptions {
  /** The app folder (`import.meta.dirname` in `app.ts`); holds `views/`, `templates/`, `static/`, `lib/`. */
  readonly root: string;
  /** The app's name in a multi-application codebase (`--app NAME`). */
  readonly name?: string;
  /** Names of the modules under `views/` this app serves (multi-application); default: all. */
  readonly viewModules?: readonly string[];
  /** Alias of `viewModules` (fw-a's first name for it; docs/configuration.md "Same thing, same name"). */
  readonly views?: readonly string[];
  /** View modules already imported, instead of discovering `views/` (tests, generated apps). */
  readonly modules?: readonly ViewModule[];
  /** Config keys that win over `lib/config.ts` and the environment. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** How the login manager loads users: `{ loadUser: (id) => User.find(id), userId: (u) => String(u.id) }`. */
  readonly auth?: AuthOptions;
  /**
   * Extra plugins, after the built-in batteries (see `batteries` in config) and the framework's
   * own: `HostPlugin`s, or a function of the resolved config that returns them.
   */
  readonly plugins?:
    | readonly HostPlugin[]
    | ((config: AppConfig) => readonly HostPlugin[] | Promise<readonly HostPlugin[]>);
  /** A URL prefix the whole app lives under. */
  readonly basePath?: string;
  /** Other apps mounted under a prefix of this one: `{ "/api": apiApp }`. */
  readonly mounts?: Readonly<Record<string, AppDefinition>>;
  /** A pino logger to use instead of the app's own. */
  readonly logger?: HostOptions["logger"];
}

/** The option names of every framework's `createApp` and `defineApp` (the keys of {@link AppOptions}). */
export const APP_OPTION_KEYS = Object.freeze([
  "root",
  "name",
  "viewModules",
  "modules",
  "config",
  "auth",
  "plugins",
  "basePath",
  "mounts",
  "logger",
] as const);

/** The name of an app option. */
export type AppOptionKey = (typeof APP_OPTION_KEYS)[number];

/** Other names of app options (alias: name): `views` is fw-a's first name of `viewModules`. */
export const APP_OPTION_ALIASES: Readonly<Record<string, AppOptionKey>> = Object.freeze({ views: "viewModules" });

/**
 * Checks an app's options (`E_UNKNOWN_OPTION` naming the known ones, aliases included) and returns
 * them with every alias replaced by its name; both given is `E_OPTION_ALIAS_TWICE`.
 */
export function resolveAppOptions<T extends object>(where: string, options: T): T {
  checkOptionKeys(where, options, [...APP_OPTION_KEYS, ...Object.keys(APP_OPTION_ALIASES)]);
  const resolved = { ...options } as Record<string, unknown>;
  for (const [alias, name] of Object.entries(APP_OPTION_ALIASES)) {
    if (!(alias in resolved)) continue;
    if (resolved[name] !== undefined) throw new E_OPTION_ALIAS_TWICE(where, name, alias);
    resolved[name] = resolved[alias];
    delete resolved[alias];
  }
  return resolved as T;
}

/**
 * Builds and mounts the `mounts` of an app (`{ "/api": apiApp }`) on its host, each under the
 * parent's base path. A prefix is checked before its app is built, so a refused mount opens no
 * database; on any failure what was built is closed, the parent included.
 */
export async function mountApps(
  host: Host,
  mounts: Readonly<Record<string, AppDefinition>> | undefined,
  overrides: CreateOverrides,
  basePath: string | undefined,
): Promise<Host> {
  try {
    for (const [prefix, child] of Object.entries(mounts ?? {})) {
      host.checkMount(prefix);
      const mounted = await child.create({ ...overrides, basePath: `${trimBasePath(basePath)}${prefix}` });
      try {
        host.mount(prefix, mounted);
      } catch (error) {
        // Refused after it was built (it lacks a guard the parent requires): release what it opened.
        await mounted.close();
        throw error;
      }
    }
  } catch (error) {
    await host.close();
    throw error;
  }
  return host;
}

/** A base path as the kit keeps it: no trailing slash, "" for none. */
export function trimBasePath(basePath: string | undefined): string {
  return (basePath ?? "").replace(/\/+$/, "");
}
