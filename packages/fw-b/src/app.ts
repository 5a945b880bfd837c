import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createHost, loadConfig, type AppConfig, type Host, type HostOptions, type Responder } from "@fwkit/koa-host";
import { loadViewModules, mountApps, resolveAppOptions, type HostPlugin } from "@fwkit/koa-host/plugin";
import type { AppDefinition, CreateOverrides } from "@fwkit/koa-host/cli";
import type { ViewModule } from "routing-kernel";
import { I18N_CONFIG_KEYS } from "@fwkit/services/plugin";
import { conventions } from "./base.js";
import { autoMigrates, BATTERY_CONFIG_KEYS, batteryPlugins, type AuthOptions } from "./batteries.js";
import { CONTRIB_CONFIG_KEYS, contribSettings, type ContribSettings } from "./contrib/config.js";
import { FWB_CONFIG_KEYS } from "./config-types.js";
import type { UserRow } from "./contrib/models.js";
import { fwbPlugin, type FwbPlugin } from "./contrib/plugin.js";
import { translatorPlugin } from "./contrib/i18n/translator-plugin.js";
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
  /** Alias of `viewModules` (fw-a's first name for it; docs/configuration.md "Same thing, same name"). */
  readonly views?: readonly string[];
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
  /** Other apps mounted under a prefix of this one: `{ "/api": apiApp }`. */
  readonly mounts?: Readonly<Record<string, AppDefinition>>;
}

/**
 * The views of the enabled contrib modules. Their modules (pages, forms, OAuth) are imported only
 * when one is on, so an app without contrib pages does not load them at start-up. The settings
 * checked are those `contribViewModules` (contrib/modules.ts) mounts views for.
 */
async function contribViews(settings: ContribSettings): Promise<ViewModule[]> {
  if (!settings.auth && !settings.admin && !settings.contact && !settings.oauth) return [];
  const { contribViewModules } = await import("./contrib/modules.js");
  return contribViewModules(settings);
}

function rootOf(root: string): string {
  const path = root.startsWith("file:") ? fileURLToPath(root) : root;
  return isAbsolute(path) ? path : resolve(path);
}


/**
 * Builds an fw-b app now: config, views (the app's and the enabled contrib modules'), route
 * table, batteries (security, data, services), the fw-b plugin and the app's plugins, responder.
 * The CLI uses {@link defineApp}; tests and custom servers may call this directly.
 */
export async function createApp(given: FwBAppOptions, overrides: CreateOverrides = {}): Promise<Host> {
  // The option names both frameworks share (koa-host's app-options.ts); `views` becomes `viewModules`.
  const options = resolveAppOptions("createApp(options)", given);
  const root = rootOf(options.root);
  const configOverrides = { ...options.config, ...overrides.config };
  // The contrib modules add views, so the config is needed before the route table is built.
  // A mounted app gets its prefix from the parent (overrides), as in fw-a.
  const basePath = overrides.basePath ?? options.basePath;
  const early = await loadConfig(root, { ...configOverrides, ...(basePath ? { basePath } : {}) });
  const contribModules = await contribViews(contribSettings(early));
  const appModules = options.modules ?? (contribModules.length > 0 ? await loadViewModules(root, options.viewModules) : undefined);
  let responder: Responder | undefined;
  const host = await createHost({
    root,
    conventions,
    // fw-b's own keys: the layout's site name and the contrib modules (config-types.ts); `baseUrl` is the host's.
    // `i18n` is fw-a's key for the languages, the same as `contrib.i18n` here (one name in both).
    configKeys: [...BATTERY_CONFIG_KEYS, I18N_CONFIG_KEYS, FWB_CONFIG_KEYS, CONTRIB_CONFIG_KEYS],
    responder: (setup) => {
      responder = createResponder(setup, { packageTemplates: PACKAGE_TEMPLATES, contribErrors: contribSettings(setup.config).errors });
      return responder;
    },
    ...(appModules ? { modules: [...appModules, ...contribModules] } : {}),
    ...(options.viewModules && !appModules ? { viewModules: options.viewModules } : {}),
    config: configOverrides,
    plugins: async (config) => {
      const extra = typeof options.plugins === "function" ? await options.plugins(config) : (options.plugins ?? []);
      const settings = contribSettings(config);
      const mailRenderer = pugMailRenderer({
        appDir: join(config.root, "templates"),
        packageDir: PACKAGE_TEMPLATES,
        development: config.env === "development",
        globals: { config },
      });
      let fwb: FwbPlugin | undefined;
      const auth: AuthOptions | undefined =
        options.auth ??
        (settings.auth
          ? {
              loadUser: (id: string) => fwb!.loadUser(id),
              userId: (user: unknown) => String((user as UserRow).id),
              // A new password ends the remember-me cookies made with the old one.
              rememberFingerprint: (user: unknown) => (user as UserRow).password_hash ?? "",
            }
          : undefined);
      const batteries = batteryPlugins(config, { ...(auth ? { auth } : {}), mailRenderer, migrate: false });
      fwb = fwbPlugin({ config, settings, batteries, migrate: Boolean(batteries.data) && autoMigrates(config), responder: () => responder });
      const { security, data, services } = batteries;
      const batteryList = [security, data, services].filter((plugin): plugin is NonNullable<typeof plugin> => plugin !== undefined);
      return [translatorPlugin(), ...batteryList, fwb, ...extra];
    },
    ...(basePath ? { basePath } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return mountApps(host, options.mounts, overrides, basePath);
}

/**
 * Declares an app for `app.ts`: `export const app = defineApp({ root: import.meta.dirname })`.
 * Nothing is built until the CLI (or a test) calls `create()`.
 */
export function defineApp(options: FwBAppOptions): AppDefinition {
  resolveAppOptions("defineApp(options)", options);
  const root = rootOf(options.root);
  return Object.freeze({
    root,
    ...(options.name ? { name: options.name } : {}),
    create: (overrides?: CreateOverrides) => createApp({ ...options, root }, overrides),
  });
}
