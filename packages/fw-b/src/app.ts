import { join } from "node:path";
import { defineFramework, type AppOptions, type AuthOptions } from "@fwkit/app-kit";
import type { Host } from "@fwkit/koa-host";
import type { AppDefinition, CreateOverrides } from "@fwkit/koa-host";
import type { ViewModule } from "routing-kernel";
import { conventions } from "./base.js";
import { contribSettings, type ContribSettings } from "./contrib/config.js";
import { fwbConfigSchema } from "./config-schema.js";
import { createContribModels, findActiveUser, type UserRow } from "./contrib/models.js";
import { fwbPlugin } from "./contrib/plugin.js";
import { translatorPlugin } from "./contrib/i18n/translator-plugin.js";
import { PACKAGE_TEMPLATES } from "./paths.js";
import { pugMailRenderer } from "./render/mail.js";
import { createResponder } from "./render/responder.js";

/** Options of {@link defineApp} and {@link createApp}. */
export type FwBAppOptions = AppOptions;

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

/**
 * Framework B as the app kit assembles it: its conventions, its Pug responder and mail renderer,
 * its own keys (`siteName`, `contrib`), the contrib modules' views, the request's translator
 * before the batteries and the fw-b plugin (assets, languages, contrib modules, their migrations
 * with the app's) after them.
 */
export const framework = defineFramework({
  name: "fw-b",
  conventions,
  configKeys: [fwbConfigSchema.configKeys],
  responder: (setup) =>
    createResponder(setup, {
      packageTemplates: PACKAGE_TEMPLATES,
      contribErrors: contribSettings(setup.config).errors,
    }),
  mailRenderer: (config) =>
    pugMailRenderer({
      appDir: join(config.root, "templates"),
      packageDir: PACKAGE_TEMPLATES,
      development: config.env === "development",
      globals: { config },
    }),
  viewModules: (config) => contribViews(contribSettings(config)),
  appliesMigrations: true,
  parts({ config }) {
    const settings = contribSettings(config);
    // Made before the login manager, which reads the users with them; the fw-b plugin binds them
    // to the database at its setup, before any request.
    const models = createContribModels();
    const auth: AuthOptions | undefined = settings.auth
      ? {
          loadUser: (id: string) => findActiveUser(models, id),
          userId: (user: unknown) => String((user as UserRow).id),
          // A new password ends the remember-me cookies made with the old one.
          rememberFingerprint: (user: unknown) => (user as UserRow).password_hash ?? "",
        }
      : undefined;
    return {
      ...(auth ? { auth } : {}),
      before: [translatorPlugin()],
      after: (batteries, migrate) => [fwbPlugin({ config, settings, batteries, migrate, models })],
    };
  },
});

/**
 * Builds an fw-b app now: config, views (the app's and the enabled contrib modules'), route
 * table, batteries (security, data, services), the fw-b plugin and the app's plugins, responder.
 * The CLI uses {@link defineApp}; tests and custom servers may call this directly.
 */
export function createApp(options: FwBAppOptions, overrides?: CreateOverrides): Promise<Host> {
  return framework.createApp(options, overrides);
}

/**
 * Declares an app for `app.ts`: `export const app = defineApp({ root: import.meta.dirname })`.
 * Nothing is built until the CLI (or a test) calls `create()`.
 */
export function defineApp(options: FwBAppOptions): AppDefinition {
  return framework.defineApp(options);
}
