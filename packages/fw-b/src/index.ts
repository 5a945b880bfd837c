/**
 * @module fw-b
 * Framework B: class-based views over Koa where a view returns a dict that a Pug template renders,
 * or JSON / XML with one decorator; a navigation menu from `@navTitle`; sessions, CSRF, login,
 * a database, mail, cache and signals built in; the `fw-b` CLI.
 */
export { createApp, defineApp, type FwBAppOptions } from "./app.js";
export type { FwBAppConfig } from "./config-types.js";
export type { AuthOptions, BatterySwitches } from "@fwkit/app-kit";
export { conventions, FwB } from "./base.js";
export * from "./errors.js";
export { mailTemplatePath, pugMailRenderer, type PugMailOptions } from "./render/mail.js";
// `renderMarkdown` is fw-a's name of markdown: both names in both frameworks (docs/configuration.md).
export { renderMarkdown as markdown, renderMarkdown, type MarkdownOptions } from "@fwkit/services";
export { NavMenu, type MenuItem } from "./render/menu.js";
export { request, type VerbDecorator } from "./request.js";
export {
  defineConfig,
  HTTPError,
  Redirect,
  redirect,
  Reply,
  reply,
  type AppConfig,
  type Host,
  type ReplyInit,
} from "@fwkit/koa-host";
export { type HostPlugin } from "@fwkit/koa-host/plugin";
export { defineCommands, type ScriptCommand } from "@fwkit/cli/commands";
/** The OpenAPI document of an app, for tools of your own: `openApiDocument(openApiSources(host), options)`. */
export { openApiDocument, openApiSources, type OpenApiOptions, type OpenApiResult } from "@fwkit/koa-host";
/** Route names and parameters for a typed urlFor, filled by the app's generated types/routes.d.ts (`routes --types`). */
export type { RouteParamLists, RouteParams, RouteParamValue } from "@fwkit/koa-host";
export type { AppDefinition, CreateOverrides } from "@fwkit/koa-host";
export {
  dateColumn,
  defineFactory,
  defineModel,
  flash,
  formatDate,
  modelTimestamps,
  pageParams,
  paginate,
  seedFactories,
  timeAgo,
  transaction,
  ValidationError,
  type BaseRow,
  type Factory,
  type FactoryContext,
  type Knex,
  type Page,
  type SeedContext,
  type SoftDeleteRow,
} from "@fwkit/data";
export { signal, SIGNALS, type Services } from "@fwkit/services";
// Background jobs and schedules (the jobs battery; docs/jobs.md).
export { defineJob, Job, schedule, type DispatchOptions, type JobContext, type JobSchedule, type JobSettings } from "@fwkit/jobs";
export {
  attemptLogin,
  csrfToken,
  currentUser,
  hashPassword,
  issueToken,
  login,
  logout,
  needsRehash,
  updateSessionAuth,
  verifyCurrentPassword,
  verifyPassword,
} from "@fwkit/security";
/** Declare the app's user type: `declare module "fw-b" { interface UserRegistry { user: User } }`. */
export type { CurrentUser, UserRegistry } from "@fwkit/security";
