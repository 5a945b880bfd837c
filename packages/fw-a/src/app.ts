import { defineFramework, type AppOptions } from "@fwkit/app-kit";
import type { Host } from "@fwkit/koa-host";
import type { AppDefinition, CreateOverrides } from "@fwkit/koa-host";
import { currentUser } from "@fwkit/security";
import { translationsPlugin } from "@fwkit/services";
import { conventions } from "./conventions.js";
import { nunjucksMailRenderer } from "./mail.js";
import { createFwAResponder } from "./responder.js";

/** Options of {@link defineApp} and {@link createApp}. */
export type FwAAppOptions = AppOptions;

/**
 * Framework A as the app kit assembles it: its conventions, its Nunjucks responder and mail
 * renderer, and translations before the batteries (services' translationsPlugin, the machinery
 * fw-b's contrib uses too: `t`, `locale` and `format_number` in templates; it only offers the
 * request's translator, chosen when first used, so an error raised by any later middleware, such as
 * a refused CSRF token, still gets its page in the request's language).
 */
export const framework = defineFramework({
  name: "fw-a",
  conventions,
  responder: createFwAResponder,
  mailRenderer: nunjucksMailRenderer,
  // The logged-in user's language setting comes first: the framework reads it from security's
  // current user and hands it to services' translations (batteries never import each other).
  parts: () => ({
    before: [translationsPlugin({ userLocale: (ctx) => currentUser<{ locale?: unknown }>(ctx)?.locale })],
  }),
});

/** Builds a framework A app now (discovery, route table, batteries, plugins); `listen()` serves it. */
export function createApp(options: FwAAppOptions, overrides?: CreateOverrides): Promise<Host> {
  return framework.createApp(options, overrides);
}

/**
 * Declares a framework A app for the CLI (`export const app = defineApp({ root: import.meta.dirname })`
 * in `app.ts`); it is built when served, listed or migrated.
 */
export function defineApp(options: FwAAppOptions): AppDefinition {
  return framework.defineApp(options);
}
