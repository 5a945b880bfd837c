import type { Context } from "koa";
import { csrfToken } from "@fwkit/security";
import { serveForTest, type ServeForTestOptions } from "@fwkit/koa-host/testing";
import type { ViewModule } from "routing-kernel";
import { createApp, defineApp } from "../app.js";
import { cors, csrfExempt, rateLimit } from "../decorators/index.js";

/** What a conformance case adds to a served app (the suite's `ConformanceAppOptions`). */
export type AppOptions = Omit<ServeForTestOptions, "templates">;

/** The security battery on (cookie sessions, CSRF), the others off, quiet. */
const SECURE = Object.freeze({ env: "test", logRequests: false, batteries: Object.freeze({ security: true, data: false, services: false }) });
/** fw-b's error page (Pug) listing the flash messages, as a real layout does. */
const FLASH_ERROR_PAGE = "h1 #{status} #{title}\neach m in flash_messages || []\n  p= m.message\np= message\n";
const contextOf = (view: object): Context => (view as { ctx: Context }).ctx;

/** fw-b as {@link serveForTest} builds it: `createApp`, `defineApp` and its Pug error page. */
const FW_B = Object.freeze({ name: "fw-b", createApp, defineApp, flashErrorPage: Object.freeze({ file: "templates/error.pug", text: FLASH_ERROR_PAGE }) });

/** Serves the modules with the security battery on and what the case adds, in a temporary root. */
const serveSecure = (modules: ViewModule[], options: AppOptions = {}) => serveForTest(FW_B, modules, SECURE, options);

/**
 * The security part of fw-b's conformance adapter: apps with cookie sessions and CSRF on (plus the
 * config, answers outside the views, mounted app and files a case adds), `@csrfExempt`, `@cors`,
 * `@rateLimit`, and the token and session of the request a view serves.
 */
export const conformanceSecurity = Object.freeze({
  start: serveSecure,
  csrfExempt,
  cors: (settings: { readonly origin: string }) => cors(settings),
  rateLimit,
  csrfToken: (view: object) => csrfToken(contextOf(view)),
  session: (view: object) => contextOf(view).session as unknown as Record<string, unknown>,
});
