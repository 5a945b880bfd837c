/**
 * `defineFramework`: how a framework over the host is assembled, written once. A framework gives
 * its conventions, its responder, its config keys and its own plugins; the kit gives back
 * `createApp` and `defineApp` with the shared app options, the batteries (switches and
 * `autoMigrate`), mounting, and the config check of every key any of them reads.
 */
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig, type AppConfig, type Host } from "@fwkit/koa-host";
import { createHost, type Responder, type ResponderSetup } from "@fwkit/koa-host/plugin";
import type { AppDefinition, CreateOverrides } from "@fwkit/koa-host";
import { loadViewModules, type HostPlugin } from "@fwkit/koa-host/plugin";
import type { ConfigKeys } from "@fwkit/koa-host/config-schema";
import type { MailRenderer } from "@fwkit/services";
import { i18nConfigSchema } from "@fwkit/services/battery";
import type { Conventions, ViewModule } from "routing-kernel";
import { mountApps, resolveAppOptions, type AppOptions } from "./app-options.js";
import type { AuthOptions, Battery } from "./battery.js";
import { allBatteries, batteryPlugins, batterySwitchKeys, type BatteryPlugins } from "./batteries.js";
import { autoMigrates, FRAMEWORK_CONFIG_KEYS } from "./config.js";

/** What a framework's {@link FrameworkDefinition.parts} gets for one app. */
export interface AppAssembly {
  /** The app's resolved config. */
  readonly config: AppConfig;
}

/** A framework's own plugins for one app, around the batteries. */
export interface FrameworkParts {
  /** The login manager's default when the app gives no `auth` (fw-b: its contrib users). */
  readonly auth?: AuthOptions;
  /** Plugins that run before the batteries (the request's translator). */
  readonly before?: readonly HostPlugin[];
  /**
   * Plugins that run after the batteries, given the batteries' plugins by key and whether pending
   * migrations are applied at start-up (`autoMigrate` and the data battery on).
   */
  after?(batteries: BatteryPlugins, migrate: boolean): readonly HostPlugin[];
}

/** What a framework gives {@link defineFramework}. */
export interface FrameworkDefinition {
  /** The framework's name (`fw-a`), for messages and temporary folders. */
  readonly name: string;
  /** Its routing conventions (base class, trailing slash). */
  readonly conventions: Conventions;
  /** Builds its responder once the route table and config exist. */
  responder(setup: ResponderSetup): Responder | Promise<Responder>;
  /** The config keys it reads itself (`siteName`, `contrib`). */
  readonly configKeys?: readonly ConfigKeys[];
  /** Its mail template renderer, handed to the services battery. */
  mailRenderer?(config: AppConfig): MailRenderer;
  /** View modules it adds from config (fw-b's contrib pages), after the app's. */
  viewModules?(config: AppConfig): Promise<readonly ViewModule[]>;
  /** Its own plugins for one app (made once per app, so they may share state). */
  parts?(app: AppAssembly): FrameworkParts | Promise<FrameworkParts>;
  /**
   * True when the framework's own plugin applies the migrations (fw-b: the contrib modules' with
   * the app's, in one history); the data battery then applies none.
   */
  readonly appliesMigrations?: boolean;
}

/** A framework as {@link defineFramework} assembles it. */
export interface Framework {
  readonly name: string;
  readonly conventions: Conventions;
  /** Builds an app now (config, views, route table, batteries, plugins, responder); `listen()` serves it. */
  createApp(options: AppOptions, overrides?: CreateOverrides): Promise<Host>;
  /** Declares an app for the CLI (`export const app = defineApp({ root: import.meta.dirname })`); built when served. */
  defineApp(options: AppOptions): AppDefinition;
}

/** An app folder given as a path (relative to the working folder) or a `file:` URL, made absolute. */
function rootOf(root: string): string {
  const path = root.startsWith("file:") ? fileURLToPath(root) : root;
  return isAbsolute(path) ? path : resolve(path);
}

/** The keys every app of the kit may use: the kit's, the i18n block both frameworks read, every battery's. */
function kitConfigKeys(batteries: readonly Battery[]): ConfigKeys[] {
  return [
    FRAMEWORK_CONFIG_KEYS,
    batterySwitchKeys(batteries),
    i18nConfigSchema.configKeys,
    ...batteries.map((battery) => battery.configKeys),
  ];
}

/** Assembles a framework: see the module comment. */
export function defineFramework(definition: FrameworkDefinition): Framework {
  /** The app's modules and the framework's (read from an early config), or undefined to discover `views/`. */
  const modulesOf = async (
    options: AppOptions,
    root: string,
    config: Readonly<Record<string, unknown>>,
  ): Promise<readonly ViewModule[] | undefined> => {
    if (!definition.viewModules) return options.modules;
    const extra = await definition.viewModules(await loadConfig(root, config));
    if (extra.length === 0) return options.modules;
    return [...(options.modules ?? (await loadViewModules(root, options.viewModules))), ...extra];
  };

  const pluginsOf = async (
    options: AppOptions,
    config: AppConfig,
    batteries: readonly Battery[],
  ): Promise<HostPlugin[]> => {
    const extra = typeof options.plugins === "function" ? await options.plugins(config) : (options.plugins ?? []);
    const parts = (await definition.parts?.({ config })) ?? {};
    const auth = options.auth ?? parts.auth;
    const migrate = autoMigrates(config);
    const mailRenderer = definition.mailRenderer?.(config);
    const built = batteryPlugins(
      {
        config,
        ...(auth ? { auth } : {}),
        ...(mailRenderer ? { mailRenderer } : {}),
        migrate: migrate && !definition.appliesMigrations,
      },
      batteries,
    );
    const after = parts.after?.(built, migrate && built.data !== undefined) ?? [];
    return [
      ...(parts.before ?? []),
      ...Object.values(built).filter((plugin): plugin is HostPlugin => plugin !== undefined),
      ...after,
      ...extra,
    ];
  };

  const createApp = async (given: AppOptions, overrides: CreateOverrides = {}): Promise<Host> => {
    // The option names every framework shares (app-options.ts); `views` becomes `viewModules`.
    const options = resolveAppOptions("createApp(options)", given);
    const root = rootOf(options.root);
    // A mounted app gets its prefix from the parent (overrides).
    const basePath = overrides.basePath ?? options.basePath;
    const config = { ...options.config, ...overrides.config };
    const modules = await modulesOf(options, root, { ...config, ...(basePath ? { basePath } : {}) });
    // Read once per app: a battery registered later joins the apps built after it.
    const batteries = allBatteries();
    const host = await createHost({
      root,
      conventions: definition.conventions,
      configKeys: [...kitConfigKeys(batteries), ...(definition.configKeys ?? [])],
      responder: (setup) => definition.responder(setup),
      ...(modules ? { modules } : options.viewModules ? { viewModules: options.viewModules } : {}),
      config,
      plugins: (resolved) => pluginsOf(options, resolved, batteries),
      ...(basePath ? { basePath } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    return mountApps(host, options.mounts, overrides, basePath);
  };

  const defineApp = (options: AppOptions): AppDefinition => {
    resolveAppOptions("defineApp(options)", options);
    const root = rootOf(options.root);
    return Object.freeze({
      root,
      ...(options.name ? { name: options.name } : {}),
      create: (overrides?: CreateOverrides) => createApp({ ...options, root }, overrides),
    });
  };

  return Object.freeze({ name: definition.name, conventions: definition.conventions, createApp, defineApp });
}
