/**
 * @module fw-b/decorators
 * fw-b's decorators, all TC39 standard decorators usable on a class or a method: `route`,
 * `renderJson`, `renderXml`, `renderHtml`, `navTitle`, and the batteries' `csrfExempt`,
 * `loginRequired`, `bearerAuth`, `cors(options)`, `rateLimit(options)`, `idempotent` and `cache(seconds)`; declared schemas `query`,
 * `body`, `files`, `returns(status, Schema)` and the documentation `summary`, `description`, `tags`.
 */
export { navTitle, type NavEntry, type NavTitleOptions } from "./nav-title.js";
export { renderHtml, renderJson, renderXml, type BareViewDecorator } from "./response.js";
export { route } from "./route.js";
export { body, description, files, query, returns, summary, tags } from "./schemas.js";
export {
  bearerAuth,
  cache,
  cors,
  csrfExempt,
  idempotent,
  loginRequired,
  rateLimit,
  type RateLimitOptions,
} from "./security.js";
