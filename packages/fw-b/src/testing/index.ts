/**
 * @module fw-b/testing
 * Test factories for fw-b apps: the test client (`testClient(appFolder)`: in-memory requests,
 * cookies, CSRF, `loginAs`), in-process requests (`inject`), a listening app on 127.0.0.1
 * (`listenForTest`), and the adapter the shared conformance suite runs against; fw-a/testing
 * exports the same names.
 */
import { frameworkConformance, frameworkTestClient } from "@fwkit/app-kit/testing";
import type { AppTestClient, TestAppOptions, TestClientFolderOptions } from "@fwkit/app-kit/testing/app";
import { HTTPError, redirect, reply, type ReplyInit } from "@fwkit/koa-host";
import { framework } from "../app.js";
import { FwB } from "../base.js";
import {
  body,
  cors,
  csrfExempt,
  idempotent,
  query,
  rateLimit,
  renderJson,
  renderXml,
  route,
} from "../decorators/index.js";
import { request } from "../request.js";
import { conformanceCli } from "./conformance-cli.js";

// What fw-a/testing gives apps too, written once in the app kit.
export * from "@fwkit/app-kit/testing/app";

const client = frameworkTestClient(framework);

/**
 * A test client for an fw-b app: `await testClient(appFolder)` builds the app of the folder (its
 * `app.ts`) as the CLI does, in the `test` environment; `await testClient({ modules: [views] })`
 * builds one of view modules. Requests go through the app in memory (no port); cookies are kept,
 * the CSRF token is sent on unsafe verbs, `loginAs(user)` logs in through the security battery,
 * `client.jobs` is the app's fake job queue (`dispatched(Job)`, `runAll()`). Call `close()` when done.
 */
export function testClient(source: string | TestAppOptions, options?: TestClientFolderOptions): Promise<AppTestClient> {
  return client(source, options);
}

/**
 * fw-b as the shared conformance suite sees it (`runConformance(conformanceAdapter)`): its base
 * class, its decorators in its own idiom, its result helpers (`@renderXml` included), its Pug
 * templates and its CLI, on the kit's served apps.
 */
export const conformanceAdapter = frameworkConformance(framework, {
  Base: FwB,
  trailingSlash: false,
  decorators: Object.freeze({
    get: request.get,
    post: request.post,
    put: request.put,
    patch: request.patch,
    delete: request.delete,
    options: request.options,
    all: request.all,
    route,
    json: renderJson,
  }),
  results: {
    reply: (body: unknown, init: ReplyInit) => reply(body, init),
    redirect: (location: string) => redirect(location),
    httpError: (status: number, message: string) => new HTTPError(status, message),
    xml: renderXml,
  },
  security: { csrfExempt, cors: (settings: { readonly origin: string }) => cors(settings), rateLimit, idempotent },
  cli: conformanceCli,
  /** fw-b's error page (Pug) listing the flash messages, as a real layout does. */
  flashErrorPage: {
    file: "templates/error.pug",
    text: "h1= title\neach m in flash_messages || []\n  p= m.message\np= message\n",
  },
  template: { extension: "pug", text: "| template:#{name}\n" },
  schemas: { query, body },
});
