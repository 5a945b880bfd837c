import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Host } from "@fwkit/koa-host";
import { createApp } from "../src/index.js";
import type { FwBAppOptions } from "../src/app.js";

/** The fixture app's folder. */
export const FIXTURE_ROOT = fileURLToPath(new URL("./fixture-app", import.meta.url));

/** A started test app with the error log lines it wrote. */
export interface StartedApp {
  readonly host: Host;
  readonly url: string;
  /** Messages and error objects logged at level error. */
  readonly errors: Array<{ message: string; err: unknown }>;
  close(): Promise<void>;
}

/** The routing and response suites test the framework alone: batteries off unless a test turns them on. */
const NO_BATTERIES = { security: false, data: false, services: false };

/** Builds an fw-b app (the fixture app by default) and listens on 127.0.0.1. */
export async function startApp(options: Partial<FwBAppOptions> = {}): Promise<StartedApp> {
  const host = await createApp({
    root: FIXTURE_ROOT,
    ...options,
    config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", batteries: NO_BATTERIES, ...options.config },
  });
  const errors: Array<{ message: string; err: unknown }> = [];
  const logger = host.logger as unknown as Record<string, unknown>;
  logger["error"] = (obj: { err?: unknown }, message: string) => {
    errors.push({ message, err: obj?.err });
  };
  const server = await host.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return { host, url: `http://127.0.0.1:${port}`, errors, close: () => host.close() };
}
