import type { Context } from "koa";
import { mergeConfig } from "@fwkit/koa-host/plugin";
import { serveApp, type ConformanceAppOptions } from "@fwkit/conformance";
import { csrfToken } from "@fwkit/security";
import type { ViewModule } from "routing-kernel";
import { createApp, defineApp } from "../app.js";
import { cors, csrfExempt } from "../decorators/index.js";

/** The security battery on (cookie sessions, CSRF), the others off, quiet. */
const SECURE = Object.freeze({ env: "test", logRequests: false, batteries: Object.freeze({ security: true, data: false, services: false }) });

/** fw-b as the suite's `serveApp` builds its apps, with its error page (Pug) listing the flash messages, as a real layout does. */
const FW_B = Object.freeze({
  name: "fw-b",
  createApp,
  defineApp,
  mergeConfig,
  flashErrorPage: Object.freeze({ path: "templates/error.pug", text: "h1 #{status} #{title}\neach m in flash_messages || []\n  p= m.message\np= message\n" }),
});

const contextOf = (view: object): Context => (view as { ctx: Context }).ctx;

/**
 * The security part of fw-b's conformance adapter: apps with cookie sessions and CSRF on (plus the
 * config, answers outside the views, mounted app and files a case adds), `@csrfExempt`, `@cors`,
 * and the token and session of the request a view serves.
 */
export const conformanceSecurity = Object.freeze({
  start: (modules: ViewModule[], options?: ConformanceAppOptions) => serveApp(FW_B, modules, SECURE, options),
  csrfExempt,
  cors: (settings: { readonly origin: string }) => cors(settings),
  csrfToken: (view: object) => csrfToken(contextOf(view)),
  session: (view: object) => contextOf(view).session as unknown as Record<string, unknown>,
});
