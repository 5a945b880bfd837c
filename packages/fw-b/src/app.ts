import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createHost, type AppConfig, type Host, type HostOptions, type HostPlugin } from "koa-host";
import type { AppDefinition, CreateOverrides } from "koa-host/cli";
import type { ViewModule } from "routing-kernel";
import { conventions } from "./base.js";
import { defaultPlugins, type AuthOptions } from "./batteries.js";
import { PACKAGE_TEMPLATES } from "./paths.js";
import { pugMailRenderer } from "./render/mail.js";
import { createResponder } from "./render/responder.js";

/** Options of {@link defineApp} and {@link createApp}. */
export interface FwBAppOptions {
  /** The app folder (`import.meta.dirname` in `app.ts`); holds `views/`, `templates/`, `static/`, `lib/`. */
  readonly root: string;
  /** The app's name in a multi-application codebase (`--app NAME`). */
  readonly name?: string;
  /** Names of the modules under `views/` this app serves (multi-application); default: all. */
  readonly viewModules?: readonly string[];
  /** View modules already imported, instead of discovering `views/` (tests, generated apps). */
  readonly modules?: readonly ViewModule[];
  /** Config keys that win over `lib/config.ts` and the environment. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** How the login manager loads users: `{ loadUser: (id) => User.find(id), userId: (u) => String(u.id) }`. */
  readonly auth?: AuthOptions;
  /**
   * Extra plugins, after the built-in batteries (security, data, services; see `batteries` in
   * config): `HostPlugin`s, or a function of the resolved config that returns them.
   */
  readonly plugins?: readonly HostPlugin[] | ((config: AppConfig) => readonly HostPlugin[] | Promise<readonly HostPlugin[]>);
  /** A URL prefix the whole app lives under. */
  readonly basePath?: string;
  /** A pino logger to use instead of the app's own. */
  readonly logger?: HostOptions["logger"];
}

function rootOf(root: string): string {
  const path = root.startsWith("file:") ? fileURLToPath(root) : root;
  return isAbsolute(path) ? path : resolve(path);
}

/**
 * Builds an fw-b app now: config, views, route table, batteries and plugins, responder. The CLI
 * uses {@link defineApp}; tests and custom servers may call this directly.
 */
export async function createApp(options: FwBAppOptions, overrides: CreateOverrides = {}): Promise<Host> {
  return createHost({
    root: rootOf(options.root),
    conventions,
    responder: (setup) => createResponder(setup, { packageTemplates: PACKAGE_TEMPLATES }),
    ...(options.modules ? { modules: options.modules } : {}),
    ...(options.viewModules ? { viewModules: options.viewModules } : {}),
    config: { ...options.config, ...overrides.config },
    plugins: async (config) => {
      const extra = typeof options.plugins === "function" ? await options.plugins(config) : (options.plugins ?? []);
      const mailRenderer = pugMailRenderer({
        appDir: join(config.root, "templates"),
        packageDir: PACKAGE_TEMPLATES,
        development: config.env === "development",
        globals: { config },
      });
      return [...defaultPlugins(config, { ...(options.auth ? { auth: options.auth } : {}), mailRenderer }), ...extra];
    },
    ...(options.basePath ? { basePath: options.basePath } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/**
 * Declares an app for `app.ts`: `export const app = defineApp({ root: import.meta.dirname })`.
 * Nothing is built until the CLI (or a test) calls `create()`.
 */
export function defineApp(options: FwBAppOptions): AppDefinition {
  const root = rootOf(options.root);
  return Object.freeze({
    root,
    ...(options.name ? { name: options.name } : {}),
    create: (overrides?: CreateOverrides) => createApp({ ...options, root }, overrides),
  });
}
