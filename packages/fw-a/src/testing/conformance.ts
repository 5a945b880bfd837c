import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRouteTable, type ViewModule } from "routing-kernel";
import { createApp } from "../app.js";
import { fwAConventions } from "../conventions.js";
import { FwA } from "../fw-a.js";
import type { Context } from "koa";
import { csrfToken } from "@fwkit/security";
import { HTTPError } from "@fwkit/koa-host";
import { request } from "../request.js";
import { response } from "../response.js";
import { security } from "../security.js";

/** Test-time config: quiet, and a plain app with no batteries (the routing cases send no CSRF token). */
const TEST_CONFIG = { env: "test", logRequests: false, logLevel: "silent", batteries: { security: false, data: false, services: false } } as const;
/** The same with the security battery on (cookie sessions, CSRF), for the security cases. */
const SECURE_CONFIG = { ...TEST_CONFIG, batteries: { security: true, data: false, services: false } } as const;

/** A route whose Nunjucks template the result cases need. */
interface TemplateFor {
  readonly module: string;
  readonly className: string;
  readonly methodName: string;
}

async function serve(modules: ViewModule[], config: Readonly<Record<string, unknown>>, templates: readonly TemplateFor[] = []) {
  const root = mkdtempSync(join(tmpdir(), "fw-a-conformance-"));
  for (const t of templates) {
    const dir = join(root, "templates", t.module, t.className);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${t.methodName}.html`), "template:{{ name }}");
  }
  const app = await createApp({ root, modules, config });
  const server = await app.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const contextOf = (view: object): Context => (view as { ctx: Context }).ctx;

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
  start: (modules: ViewModule[]) => serve(modules, TEST_CONFIG),
  results: {
    start: (modules: ViewModule[], templates: readonly TemplateFor[]) => serve(modules, TEST_CONFIG, templates),
    reply: (body: unknown, init: { status?: number; headers?: Record<string, string> }) => response.make(body, init),
    redirect: (location: string) => response.redirect(location),
    httpError: (status: number, message: string) => new HTTPError(status, message),
  },
  security: {
    start: (modules: ViewModule[]) => serve(modules, SECURE_CONFIG),
    csrfExempt: security.csrfExempt,
    csrfToken: (view: object) => csrfToken(contextOf(view)),
    session: (view: object) => contextOf(view).session as unknown as Record<string, unknown>,
  },
};
