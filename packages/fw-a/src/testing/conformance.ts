import { buildRouteTable, type ViewModule } from "routing-kernel";
import { createApp, defineApp } from "../app.js";
import { fwAConventions } from "../conventions.js";
import { FwA } from "../fw-a.js";
import type { Context } from "koa";
import { csrfToken } from "@fwkit/security";
import { HTTPError } from "@fwkit/koa-host";
import { serveForTest, type ServeForTestOptions } from "@fwkit/koa-host/testing";
import { request } from "../request.js";
import { response } from "../response.js";
import { security } from "../security.js";
import { conformanceCli } from "./conformance-cli.js";

/** Test-time config: quiet, and a plain app with no batteries (the routing cases send no CSRF token). */
const TEST_CONFIG = { env: "test", logRequests: false, logLevel: "silent", batteries: { security: false, data: false, services: false } } as const;
/** The same with the security battery on (cookie sessions, CSRF), for the security cases. */
const SECURE_CONFIG = { ...TEST_CONFIG, batteries: { security: true, data: false, services: false } } as const;

/** What a conformance case adds to a served app (the suite's `ConformanceAppOptions`). */
type AppOptions = Omit<ServeForTestOptions, "templates">;

/** fw-a as {@link serveForTest} builds it: `createApp`, `defineApp`, its Nunjucks error page and templates. */
const FW_A = {
  name: "fw-a",
  createApp,
  defineApp,
  /** fw-a's error page (Nunjucks) listing the flash messages, as a real layout does. */
  flashErrorPage: {
    file: "templates/error.html",
    text: "<h1>{{ status }} {{ title }}</h1>{% for m in flash_messages %}<p>{{ m.message }}</p>{% endfor %}<p>{{ message }}</p>\n",
  },
  template: { extension: "html", text: "template:{{ name }}" },
};

const contextOf = (view: object): Context => (view as { ctx: Context }).ctx;

/**
 * The adapter the shared conformance suite (`runConformance` from the conformance package) runs
 * against: fw-a's base class and decorators, an app served on 127.0.0.1, its security battery, its
 * result helpers and its CLI.
 */
export const conformanceAdapter = {
  name: "fw-a",
  trailingSlash: true,
  Base: FwA,
  decorators: {
    get: request.get,
    post: request.post,
    put: request.put,
    patch: request.patch,
    delete: request.delete,
    options: request.options,
    all: request.all,
    route: request.route,
    json: response.json,
  },
  async build(modules: ViewModule[]) {
    return buildRouteTable({ conventions: fwAConventions, modules });
  },
  start: (modules: ViewModule[]) => serveForTest(FW_A, modules, TEST_CONFIG),
  results: {
    start: (modules: ViewModule[], templates: ServeForTestOptions["templates"]) => serveForTest(FW_A, modules, TEST_CONFIG, { templates }),
    reply: (body: unknown, init: { status?: number; headers?: Record<string, string> }) => response.make(body, init),
    redirect: (location: string) => response.redirect(location),
    httpError: (status: number, message: string) => new HTTPError(status, message),
  },
  security: {
    start: (modules: ViewModule[], options?: AppOptions) => serveForTest(FW_A, modules, SECURE_CONFIG, options),
    csrfExempt: security.csrfExempt,
    cors: (settings: { readonly origin: string }) => security.cors(settings),
    rateLimit: security.rateLimit,
    csrfToken: (view: object) => csrfToken(contextOf(view)),
    session: (view: object) => contextOf(view).session as unknown as Record<string, unknown>,
  },
  cli: conformanceCli,
};
