/**
 * @module fw-a
 * Framework A: class-based routing over Koa. A class extending `FwA` in `views/` becomes a group of
 * routes; methods return a string (the body), an object (rendered by the Nunjucks template found by
 * convention), or JSON. This entry is what an app imports; fw-b's root exports the same kinds of
 * names (docs/architecture.md lists them side by side). Error codes are strings on `error.code`
 * (docs/errors.md); koa-host's classes are exported by `@fwkit/koa-host`.
 */
// The app, its base class and the routing conventions.
export { createApp, defineApp } from "./app.js";
export { conventions } from "./conventions.js";
export { FwA } from "./fw-a.js";
export { request } from "./request.js";
// Results: `response.json`, `response.redirect`... (fw-b's `reply`/`redirect`), and the errors a view throws.
export { response } from "./response.js";
export { HTTPError, Reply, type Host } from "@fwkit/koa-host";
// Config and the app's user type (`declare module "fw-a" { interface UserRegistry { user: User } }`).
export { defineConfig, type AppConfig } from "@fwkit/koa-host";
export type { AuthOptions } from "@fwkit/app-kit";
export type { CurrentUser, UserRegistry } from "@fwkit/security";
// Login, passwords and tokens as one object (fw-b exports the same functions by name).
export { security } from "./security.js";
// Markdown: `markdown` is fw-b's name of renderMarkdown; both names in both frameworks (docs/configuration.md).
export { renderMarkdown as markdown, renderMarkdown } from "@fwkit/services";
// The app's commands (run/scripts.ts) and its OpenAPI document, for tools of your own.
export { defineCommands } from "@fwkit/cli/commands";
export { openApiDocument, openApiSources } from "@fwkit/koa-host";
/** Route names and parameters for a typed urlFor, filled by the app's generated types/routes.d.ts (`routes --types`). */
export type { RouteParamLists, RouteParams, RouteParamValue } from "@fwkit/koa-host";
// The data battery: models, queries, pages, flash messages, dates, factories and seeds.
export {
  belongsTo,
  defineFactory,
  defineModel,
  flash,
  formatDate,
  hasMany,
  hasManyThrough,
  hasOne,
  isRelatedRowMissing,
  manyToMany,
  paginate,
  pageParams,
  seedFactories,
  timeAgo,
  transaction,
  RelatedRowMissing,
  ValidationError,
  type BaseRow,
  type Knex,
  type Page,
  type RelationQuery,
  type RowOf,
  type SeedContext,
  type SoftDeleteRow,
} from "@fwkit/data";
// Signals, jobs and schedules (docs/services.md, docs/jobs.md).
export { signal, SIGNALS } from "@fwkit/services";
export { defineJob, Job, schedule, type JobContext } from "@fwkit/jobs";
// The app's own metrics, on the scrape of /metrics (docs/observability.md).
export { defineCounter, defineGauge, defineHistogram } from "@fwkit/app-kit";
/** Realtime: `broadcast("orders/42", "updated", data)` to the streams and sockets of `realtime.channels`, `ChannelHandler` for what WebSocket clients send, `PresenceMember` for a presence channel's member (docs/realtime.md). */
export {
  broadcast,
  ChannelHandler,
  type AuthorizeInput,
  type ChannelDefinition,
  type ChannelHandlers,
  type PresenceMember,
  type ReceiveInput,
} from "@fwkit/app-kit";
