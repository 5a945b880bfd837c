/**
 * @module fw-a
 * Framework A: class-based routing over Koa. A class extending `FwA` in `views/` becomes a group of
 * routes; methods return a string (the body), an object (rendered by the Nunjucks template found by
 * convention), or JSON.
 */
export { createApp, defineApp, type FwAAppOptions } from "./app.js";
export type { AuthOptions, BatterySwitches } from "@fwkit/app-kit";
export { fwAConventions } from "./conventions.js";
export { FwA } from "./fw-a.js";
// `markdown` is fw-b's name of renderMarkdown: both names in both frameworks (docs/configuration.md).
export { renderMarkdown as markdown, renderMarkdown, type MarkdownOptions } from "@fwkit/services";
export { request, type VerbDecorator } from "./request.js";
export { response } from "./response.js";
export { security } from "./security.js";
/** Declare the app's user type: `declare module "fw-a" { interface UserRegistry { user: User } }`. */
export type { CurrentUser, UserRegistry } from "@fwkit/security";
export { defineConfig, HTTPError, Redirect, Reply, type AppConfig, type Host } from "@fwkit/koa-host";
export { defineCommands, type ScriptCommand } from "@fwkit/cli/commands";
/** The OpenAPI document of an app, for tools of your own: `openApiDocument(openApiSources(host), options)`. */
export { openApiDocument, openApiSources, type OpenApiOptions, type OpenApiResult } from "@fwkit/koa-host";
/** Route names and parameters for a typed urlFor, filled by the app's generated types/routes.d.ts (`routes --types`). */
export type { RouteParamLists, RouteParams, RouteParamValue } from "@fwkit/koa-host";
export type { AppDefinition } from "@fwkit/koa-host";
export * from "./errors.js";
export {
  dateHelpers,
  defineFactory,
  defineModel,
  flash,
  formatDate,
  migrate,
  paginate,
  pageParams,
  rollback,
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
