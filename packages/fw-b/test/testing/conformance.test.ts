// The shared conformance suite (packages/conformance) against fw-b, through its adapter, with the
// machine's Redis as the session store of the cases that need one (none with FW_TEST_NO_SERVERS=1).
import { runConformance, type ConformanceSchemas } from "@fwkit/conformance";
import { noServers, requireServer } from "@fwkit/test-servers";
import type { ViewModule } from "routing-kernel";
import { body, query } from "../../src/decorators/index.js";
import { conformanceAdapter } from "../../src/testing/index.js";
import { startTestApp } from "../test-app.js";

/** Declared schemas are checked by the data battery (here on an in-memory SQLite), with sessions for a refused form's messages. */
const schemas: ConformanceSchemas = {
  start: (modules: ViewModule[]) =>
    startTestApp(modules, { config: { env: "test", logRequests: false, logLevel: "silent", dbUrl: "sqlite::memory:", batteries: { security: true, data: true, services: false } } }),
  query,
  body,
};

const adapter = { ...conformanceAdapter, schemas };
runConformance(noServers ? adapter : { ...adapter, security: { ...adapter.security, sessionStore: () => requireServer("redis") } });
