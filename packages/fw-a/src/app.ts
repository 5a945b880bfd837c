import { createHost, type AppConfig, type Host, type HostOptions } from "@fwkit/koa-host";
import { mountApps, resolveAppOptions, type HostPlugin } from "@fwkit/koa-host/plugin";
import { BATTERY_CONFIG_KEYS, defaultPlugins, type AuthOptions } from "./batteries.js";
import type { AppDefinition, CreateOverrides } from "@fwkit/koa-host/cli";
import type { ViewModule } from "routing-kernel";
import { fwAConventions } from "./conventions.js";
import { createFwAResponder } from "./responder.js";
import { nunjucksMailRenderer } from "./mail.js";

/** Options of {@link defineApp}. */
export interface FwAAppOptions {
  /** The app folder (`import.meta.dirname` in `app.ts`). */
  readonly root: string;
  /** The app's name in a multi-application codebase. */
  readonly name?: string;
  /** Names of the modules under `views/` this app serves (default: all). */
  readonly viewModules?: readonly string[];
  /** Alias of `viewModules` (fw-a's first name for it; docs/configuration.md "Same thing, same name"). */
  readonly views?: readonly string[];
  /** View modules already imported (tests); replaces discovery. */
  readonly modules?: readonly ViewModule[];
  /** Config keys that win over `lib/config.ts` and the environment. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** How the login manager loads users: `{ loadUser: (id) => User.find(id), userId: (u) => u.id }`. */
  readonly auth?: AuthOptions;
  /** Extra plugins, after the built-in batteries. */
  readonly plugins?: readonly HostPlugin[] | ((config: AppConfig) => readonly HostPlugin[] | Promise<readonly HostPlugin[]>);
  /** Serve this app under a URL prefix (multi-application). */
  readonly basePath?: string;
  /** Other apps mounted under a prefix of this one: `{ "/api": apiApp }`. */
  readonly mounts?: Readonly<Record<string, AppDefinition>>;
  /** A pino logger to use instead of the app's own. */
  readonly logger?: HostOptions["logger"];
}


/** Builds a framework A app now (discovery, route table, plugins); `listen()` serves it. */
export async function createApp(given: FwAAppOptions, overrides: CreateOverrides = {}): Promise<Host> {
  // The option names both frameworks share (koa-host's app-options.ts); `views` becomes `viewModules`.
  const options = resolveAppOptions("createApp(options)", given);
  const host = await createHost({
    root: options.root,
    conventions: fwAConventions,
    responder: createFwAResponder,
    configKeys: BATTERY_CONFIG_KEYS,
    ...(options.modules ? { modules: options.modules } : {}),
    ...(options.viewModules ? { viewModules: options.viewModules } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...((overrides.basePath ?? options.basePath) ? { basePath: overrides.basePath ?? options.basePath } : {}),
    config: { ...options.config, ...overrides.config },
    plugins: async (config) => {
      const extra = typeof options.plugins === "function" ? await options.plugins(config) : (options.plugins ?? []);
      return [...defaultPlugins(config, { ...(options.auth ? { auth: options.auth } : {}), mailRenderer: nunjucksMailRenderer(config) }), ...extra];
    },
  });
  return mountApps(host, options.mounts, overrides, overrides.basePath ?? options.basePath);
}

/**
 * Declares a framework A app for the CLI (`export const app = defineApp({ root: import.meta.dirname })`
 * in `app.ts`); it is built when served, listed or migrated.
 */
export function defineApp(options: FwAAppOptions): AppDefinition {
  resolveAppOptions("defineApp(options)", options);
  return Object.freeze({
    root: options.root,
    ...(options.name ? { name: options.name } : {}),
    create: (overrides?: CreateOverrides) => createApp(options, overrides),
  });
}

