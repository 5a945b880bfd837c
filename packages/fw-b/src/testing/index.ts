/**
 * @module fw-b/testing
 * Factories for testing fw-b apps: the test client (`testClient(appFolder)`: in-memory requests,
 * cookies, CSRF, `loginAs`), an app of view classes built in process or served on 127.0.0.1, and
 * the adapter the shared conformance suite runs against.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Host } from "@fwkit/koa-host";
import type { ViewModule } from "routing-kernel";
import { createApp, type FwBAppOptions } from "../app.js";
import { FwB } from "../base.js";
import { renderJson, route } from "../decorators/index.js";
import { request } from "../request.js";
import { conformanceCli } from "./conformance-cli.js";
import { conformanceResults } from "./conformance-results.js";
import { conformanceSecurity } from "./conformance-security.js";

export { TestClient, TestResponse, XmlElement, type TestClientFolderOptions, type TestRequestInit } from "@fwkit/koa-host/testing";
export { testClient, type TestAppOptions } from "./client.js";

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
  const server = await host.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    host,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await host.close();
      cleanup();
    },
  };
}

/** A plain app: no batteries (the suite sends no CSRF token and needs no database). */
const PLAIN = Object.freeze({ batteries: Object.freeze({ security: false, data: false, services: false }) });

/**
 * fw-b as the shared conformance suite sees it (`runConformance(conformanceAdapter)`): its base
 * class, its decorators in its own idiom, plain apps (batteries off) served on 127.0.0.1, its
 * security battery, its result helpers and its CLI.
 */
export const conformanceAdapter = Object.freeze({
  name: "fw-b",
  trailingSlash: false,
  Base: FwB,
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
  start: (modules: ViewModule[]) => startTestApp(modules, { config: PLAIN }),
  results: conformanceResults((modules, root) => startTestApp(modules, { config: PLAIN, root })),
  security: conformanceSecurity,
  cli: conformanceCli,
  async build(modules: ViewModule[]): Promise<unknown> {
    const { host, cleanup } = await buildTestApp(modules, { config: PLAIN });
    await host.close();
    cleanup();
    return host;
  },
  /** Nothing is skipped: fw-b passes every case of the suite. */
  skip: Object.freeze([]) as readonly { readonly reason: string; readonly tests: readonly string[] }[],
});
