import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Host } from "../host.js";
import { createTestClient, loadTestClient, type TestClient, type TestClientSession } from "./client.js";

/** Options for an app loaded from its folder. */
export interface TestClientFolderOptions {
  /** Which app of a multi-application codebase. */
  readonly appName?: string;
  /** Config keys over the app's own (`env` is `test` and request logs are off unless given here). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** What a framework gives {@link frameworkTestClient}: how it builds an app of modules, and its session battery. */
export interface TestClientFramework<Options> {
  /** The framework's name, for the temporary folder (`fw-a`). */
  readonly name: string;
  /** Builds an app (the framework's `createApp`). */
  createApp(
    options: Options & { readonly root: string; readonly config: Readonly<Record<string, unknown>> },
  ): Promise<Host>;
  /** The session battery's CSRF token and login. */
  readonly session: TestClientSession;
}

const TEST_DEFAULTS = { env: "test", logRequests: false } as const;

/**
 * The one implementation behind fw-a's and fw-b's `testClient(source)`: a folder is built as the
 * CLI builds it (its `app.ts`); options with `modules` are built by the framework's `createApp`
 * in `root` or an empty temporary folder (removed by `close()`). Both in the `test` environment
 * without request logs unless the config says otherwise.
 */
export async function frameworkTestClient<
  Options extends { readonly root?: string; readonly config?: Readonly<Record<string, unknown>> },
>(
  framework: TestClientFramework<Options>,
  source: string | Options,
  options: TestClientFolderOptions = {},
): Promise<TestClient> {
  const session = framework.session;
  if (typeof source === "string")
    return loadTestClient(source, { ...options, session, config: { ...TEST_DEFAULTS, ...options.config } });
  const root = source.root ?? mkdtempSync(join(tmpdir(), `${framework.name}-test-`));
  const cleanup = () => {
    if (!source.root) rmSync(root, { recursive: true, force: true });
  };
  try {
    const host = await framework.createApp({
      ...source,
      root,
      config: { ...TEST_DEFAULTS, ...source.config, ...options.config },
    });
    return createTestClient(host, { session, cleanup });
  } catch (error) {
    cleanup();
    throw error;
  }
}
