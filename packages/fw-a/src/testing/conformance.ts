import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRouteTable, type ViewModule } from "routing-kernel";
import { createApp } from "../app.js";
import { fwAConventions } from "../conventions.js";
import { FwA } from "../fw-a.js";
import { request } from "../request.js";
import { response } from "../response.js";

/** Test-time config: quiet, and a plain app with no batteries (the suite sends no CSRF token). */
const TEST_CONFIG = { env: "test", logRequests: false, logLevel: "silent", batteries: { security: false, data: false, services: false } } as const;

/**
 * The adapter the shared conformance suite (`runConformance` from the conformance package) runs
 * against: fw-a's base class and decorators, an app served on 127.0.0.1.
 */
export const conformanceAdapter = {
  name: "fw-a",
  trailingSlash: true,
  Base: FwA,
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
  async build(modules: ViewModule[]) {
    return buildRouteTable({ conventions: fwAConventions, modules });
  },
  async start(modules: ViewModule[]) {
    const root = mkdtempSync(join(tmpdir(), "fw-a-conformance-"));
    const app = await createApp({ root, modules, config: TEST_CONFIG });
    const server = await app.listen(0, "127.0.0.1");
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      async close() {
        await app.close();
        rmSync(root, { recursive: true, force: true });
      },
    };
  },
};
