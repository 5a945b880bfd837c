import { createHost, type AppConfig, type Host, type HostPlugin } from "@fwkit/koa-host";
import { BATTERY_CONFIG_KEYS, defaultPlugins, type AuthOptions } from "./batteries.js";
import type { AppDefinition, CreateOverrides } from "@fwkit/koa-host/cli";
import { checkOptionKeys, type ViewModule } from "routing-kernel";
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
  readonly views?: readonly string[];
  /** View modules already imported (tests); replaces discovery. */
  readonly modules?: readonly ViewModule[];
  /** Config keys that win over `lib/config.ts` and the environment. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** How the login manager loads users: `{ loadUser: (id) => User.find(id), userId: (u) => u.id }`. */
  readonly auth?: AuthOptions;
  /** Extra plugins, after the built-in batteries. */
  readonly plugins?: readonly HostPlugin[] | ((config: AppConfig) => readonly HostPlugin[]);
  /** Serve this app under a URL prefix (multi-application). */
  readonly basePath?: string;
  /** Other apps mounted under a prefix of this one: `{ "/api": apiApp }`. */
  readonly mounts?: Readonly<Record<string, AppDefinition>>;
}

/** The keys of {@link FwAAppOptions}, checked at start-up so a misspelt option is not silently ignored. */
const APP_OPTION_KEYS = ["root", "name", "views", "modules", "config", "auth", "plugins", "basePath", "mounts"] as const satisfies readonly (keyof FwAAppOptions)[];

/** Builds a framework A app now (discovery, route table, plugins); `listen()` serves it. */
export async function createApp(options: FwAAppOptions, overrides: CreateOverrides = {}): Promise<Host> {
  checkOptionKeys("createApp(options)", options, APP_OPTION_KEYS);
  const host = await createHost({
    root: options.root,
    conventions: fwAConventions,
    responder: createFwAResponder,
    configKeys: BATTERY_CONFIG_KEYS,
    ...(options.modules ? { modules: options.modules } : {}),
    ...(options.views ? { viewModules: options.views } : {}),
    ...((overrides.basePath ?? options.basePath) ? { basePath: overrides.basePath ?? options.basePath } : {}),
    config: { ...options.config, ...overrides.config },
    plugins: async (config) => {
      const extra = typeof options.plugins === "function" ? options.plugins(config) : (options.plugins ?? []);
      return [...defaultPlugins(config, { ...(options.auth ? { auth: options.auth } : {}), mailRenderer: nunjucksMailRenderer(config) }), ...extra];
    },
  });
  try {
    for (const [prefix, child] of Object.entries(options.mounts ?? {})) {
      // Checked before the child is built: a refused mount opens no database or port.
      host.checkMount(prefix);
      const basePath = `${(overrides.basePath ?? options.basePath ?? "").replace(/\/+$/, "")}${prefix}`;
      const mounted = await child.create({ ...overrides, basePath });
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

/**
 * Declares a framework A app for the CLI (`export const app = defineApp({ root: import.meta.dirname })`
 * in `app.ts`); it is built when served, listed or migrated.
 */
export function defineApp(options: FwAAppOptions): AppDefinition {
  checkOptionKeys("defineApp(options)", options, APP_OPTION_KEYS);
  return Object.freeze({
    root: options.root,
    ...(options.name ? { name: options.name } : {}),
    create: (overrides?: CreateOverrides) => createApp(options, overrides),
  });
}

