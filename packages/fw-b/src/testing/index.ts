/**
 * @module fw-b/testing
 * Test factories for fw-b apps: the test client (`testClient(appFolder)`: in-memory requests,
 * cookies, CSRF, `loginAs`), in-process requests (`inject`), a listening app on 127.0.0.1
 * (`listenForTest`), and the adapter the shared conformance suite runs against; fw-a/testing
 * exports the same names.
 */
import { frameworkConformance } from "@fwkit/app-kit/testing";
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

export {
  inject,
  listenForTest,
  TestClient,
  TestResponse,
  XmlElement,
  type InjectedResponse,
  type TestClientFolderOptions,
  type TestRequestInit,
} from "@fwkit/koa-host/testing";
export { testClient, type AppTestClient, type TestAppOptions } from "./client.js";

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
