// The shared conformance suite (packages/conformance) against fw-a over real HTTP on 127.0.0.1, with
// the machine's Redis as the session store of the cases that need one (none with FW_TEST_NO_SERVERS=1).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformance, type ConformanceSchemas } from "@fwkit/conformance";
import { noServers, requireServer } from "@fwkit/test-servers";
import type { ViewModule } from "routing-kernel";
import { createApp, request } from "../src/index.js";
import { conformanceAdapter, listenForTest } from "../src/testing/index.js";

/** Declared schemas are checked by the data battery (here on an in-memory SQLite), with sessions for a refused form's messages. */
const schemas: ConformanceSchemas = {
  async start(modules: ViewModule[]) {
    const root = mkdtempSync(join(tmpdir(), "fw-a-schemas-"));
    const config = { env: "test", logRequests: false, logLevel: "silent", dbUrl: "sqlite::memory:", batteries: { security: true, data: true, services: false } } as const;
    const served = await listenForTest(await createApp({ root, modules, config }));
    return { url: served.url, close: () => served.close().finally(() => rmSync(root, { recursive: true, force: true })) };
  },
  query: request.query,
  body: request.body,
};

const adapter = { ...conformanceAdapter, schemas };
runConformance(noServers ? adapter : { ...adapter, security: { ...adapter.security, sessionStore: () => requireServer("redis") } });
