import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createHost, type Host, type HostOptions } from "koa-host";
import type { AppDefinition, CreateOverrides } from "koa-host/cli";
import type { ViewModule } from "routing-kernel";
import { conventions } from "./base.js";
import { PACKAGE_TEMPLATES } from "./paths.js";
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
  /**
   * Batteries (sessions, CSRF, login, data, cache...): `HostPlugin`s, or a function of the resolved
   * config that returns them. This is where security, data and services plug in.
   */
  readonly plugins?: HostOptions["plugins"];
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
 * Builds an fw-b app now: config, views, route table, plugins, responder. The CLI uses
 * {@link defineApp}; tests and custom servers may call this directly.
 */
export async function createApp(options: FwBAppOptions, overrides: CreateOverrides = {}): Promise<Host> {
  return createHost({
    root: rootOf(options.root),
    conventions,
    responder: (setup) => createResponder(setup, { packageTemplates: PACKAGE_TEMPLATES }),
    ...(options.modules ? { modules: options.modules } : {}),
    ...(options.viewModules ? { viewModules: options.viewModules } : {}),
    config: { ...options.config, ...overrides.config },
    ...(options.plugins ? { plugins: options.plugins } : {}),
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
