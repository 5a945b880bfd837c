/**
 * @module fw-b/testing
 * Factories for testing fw-b apps: the test client (`testClient(appFolder)`: in-memory requests,
 * cookies, CSRF, `loginAs`), an app of view classes built in process or served on 127.0.0.1, and
 * the adapter the shared conformance suite runs against.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Host } from "@fwkit/koa-host";
import type { ViewModule } from "routing-kernel";
import { frameworkConformance } from "@fwkit/app-kit/testing";
import { listenForTest } from "@fwkit/koa-host/testing";
import { HTTPError, redirect, reply, type ReplyInit } from "@fwkit/koa-host";
import { createApp, framework, type FwBAppOptions } from "../app.js";
import { FwB } from "../base.js";
import { cors, csrfExempt, rateLimit, renderJson, renderXml, route } from "../decorators/index.js";
import { request } from "../request.js";
import { conformanceCli } from "./conformance-cli.js";

export { TestClient, TestResponse, XmlElement, type TestClientFolderOptions, type TestRequestInit } from "@fwkit/koa-host/testing";
export { testClient, type AppTestClient, type TestAppOptions } from "./client.js";

/** A test app listening on 127.0.0.1. */
export interface TestServer {
  readonly host: Host;
  /** Base URL such as `http://127.0.0.1:49152`. */
  readonly url: string;
  /** Stops the server, closes plugins and removes the temporary root if one was made. */
  close(): Promise<void>;
}

/**
 * Builds an fw-b app of the given view modules (in an empty temporary root unless `root` is
 * given), in the `test` environment without request logs.
 */
export async function buildTestApp(modules: readonly ViewModule[], options: Partial<FwBAppOptions> = {}): Promise<{ host: Host; cleanup(): void }> {
  const root = options.root ?? mkdtempSync(join(tmpdir(), "fw-b-test-"));
  const cleanup = () => {
    if (!options.root) rmSync(root, { recursive: true, force: true });
  };
  try {
    const host = await createApp({ ...options, root, modules, config: { env: "test", logRequests: false, ...options.config } });
    return { host, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** Builds an fw-b app of the given view modules and listens on 127.0.0.1 and an ephemeral port. */
export async function startTestApp(modules: readonly ViewModule[], options: Partial<FwBAppOptions> = {}): Promise<TestServer> {
  const { host, cleanup } = await buildTestApp(modules, options);
  const served = await listenForTest(host);
  return {
    host,
    url: served.url,
    async close() {
      await served.close();
      cleanup();
    },
  };
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
  security: { csrfExempt, cors: (settings: { readonly origin: string }) => cors(settings), rateLimit },
  cli: conformanceCli,
  /** fw-b's error page (Pug) listing the flash messages, as a real layout does. */
  flashErrorPage: { file: "templates/error.pug", text: "h1 #{status} #{title}\neach m in flash_messages || []\n  p= m.message\np= message\n" },
  template: { extension: "pug", text: "| template:#{name}\n" },
});
