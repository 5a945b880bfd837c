/**
 * @module fw-b
 * Framework B: class-based views over Koa where a view returns a dict that a Pug template renders,
 * or JSON / XML with one decorator; a navigation menu from `@navTitle`; sessions, CSRF, login,
 * a database, mail, cache and signals built in; the `fw-b` CLI. This entry is what an app imports;
 * fw-a's root exports the same kinds of names (docs/architecture.md lists them side by side). Error
 * codes are strings on `error.code` (docs/errors.md); the contrib modules' classes are exported by
 * `fw-b/contrib`, koa-host's by `@fwkit/koa-host`.
 */
// The app, its base class and the routing conventions.
export { createApp, defineApp } from "./app.js";
export { conventions, FwB } from "./base.js";
export { request } from "./request.js";
// Results: `reply` and `redirect` (fw-a's `response.json`, `response.redirect`...), and the errors a view throws.
export { HTTPError, redirect, Reply, reply, type Host } from "@fwkit/koa-host";
// Config and the app's user type (`declare module "fw-b" { interface UserRegistry { user: User } }`).
export { defineConfig, type AppConfig } from "@fwkit/koa-host";
export type { FwBAppConfig } from "./config-schema.js";
export type { AuthOptions } from "@fwkit/app-kit";
export type { CurrentUser, UserRegistry } from "@fwkit/security";
// Login, passwords and tokens by name (fw-a gathers the same functions in its `security` object).
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
// Markdown: `renderMarkdown` is fw-a's name of markdown; both names in both frameworks (docs/configuration.md).
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
  pageParams,
  paginate,
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
