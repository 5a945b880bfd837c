// fw-b apps of view classes for this package's tests: built in an empty temporary root, in the
// `test` environment without request logs, and served on 127.0.0.1.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Host } from "@fwkit/koa-host";
import { listenForTest } from "@fwkit/koa-host/testing";
import type { ViewModule } from "routing-kernel";
import { createApp, type FwBAppOptions } from "../src/app.js";

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
export async function buildTestApp(
  modules: readonly ViewModule[],
  options: Partial<FwBAppOptions> = {},
): Promise<{ host: Host; cleanup(): void }> {
  const root = options.root ?? mkdtempSync(join(tmpdir(), "fw-b-test-"));
  const cleanup = () => {
    if (!options.root) rmSync(root, { recursive: true, force: true });
  };
  try {
    const host = await createApp({
      ...options,
      root,
      modules,
      config: { env: "test", logRequests: false, ...options.config },
    });
    return { host, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** Builds an fw-b app of the given view modules and listens on 127.0.0.1 and an ephemeral port. */
export async function startTestApp(
  modules: readonly ViewModule[],
  options: Partial<FwBAppOptions> = {},
): Promise<TestServer> {
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
