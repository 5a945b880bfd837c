import { frameworkConformance } from "@fwkit/app-kit/testing";
import { HTTPError } from "@fwkit/koa-host";
import { framework } from "../app.js";
import { FwA } from "../fw-a.js";
import { request } from "../request.js";
import { response } from "../response.js";
import { security } from "../security.js";
import { conformanceCli } from "./conformance-cli.js";

/**
 * The adapter the shared conformance suite (`runConformance` from the conformance package) runs
 * against: fw-a's base class and decorators, its result helpers, its Nunjucks templates and its
 * CLI, on the kit's served apps.
 */
export const conformanceAdapter = frameworkConformance(framework, {
  Base: FwA,
  trailingSlash: true,
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
  results: {
    reply: (body: unknown, init: { status?: number; headers?: Record<string, string> }) => response.make(body, init),
    redirect: (location: string) => response.redirect(location),
    httpError: (status: number, message: string) => new HTTPError(status, message),
  },
  security: {
    csrfExempt: security.csrfExempt,
    cors: (settings: { readonly origin: string }) => security.cors(settings),
    rateLimit: security.rateLimit,
    idempotent: security.idempotent,
  },
  cli: conformanceCli,
  /** fw-a's error page (Nunjucks) listing the flash messages, as a real layout does. */
  flashErrorPage: {
    file: "templates/error.html",
    text: "<h1>{{ title }}</h1>{% for m in flash_messages %}<p>{{ m.message }}</p>{% endfor %}<p>{{ message }}</p>\n",
  },
  template: { extension: "html", text: "template:{{ name }}" },
  schemas: { query: request.query, body: request.body },
});
