import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildRouteTable, type ViewModule } from "routing-kernel";
import { createApp, defineApp } from "../app.js";
import { fwAConventions } from "../conventions.js";
import { FwA } from "../fw-a.js";
import type { Context, Middleware } from "koa";
import { csrfToken } from "@fwkit/security";
import { HTTPError, type Host } from "@fwkit/koa-host";
import { mergeConfig, type HostPlugin } from "@fwkit/koa-host/plugin";
import { request } from "../request.js";
import { response } from "../response.js";
import { security } from "../security.js";
import { conformanceCli } from "./conformance-cli.js";

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

/** What a conformance case adds to a served app (the suite's `ConformanceAppOptions`). */
interface AppOptions {
  readonly config?: Readonly<Record<string, unknown>>;
  readonly handlers?: readonly Handler[];
  readonly mount?: { readonly path: string; readonly modules: ViewModule[] };
  readonly files?: Readonly<Record<string, string>>;
  readonly flashErrorPage?: boolean;
}

/** An answer outside the views (the suite's `ConformanceHandler`). */
interface Handler {
  readonly by: "router" | "middleware" | "plugin";
  readonly method: string;
  readonly path: string;
  readonly middleware: Middleware;
}

/** fw-a's error page (Nunjucks) listing the flash messages, as a real layout does. */
const FLASH_ERROR_PAGE = "<h1>{{ status }} {{ title }}</h1>{% for m in flash_messages %}<p>{{ m.message }}</p>{% endfor %}<p>{{ message }}</p>\n";

function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

async function serve(modules: ViewModule[], base: Readonly<Record<string, unknown>>, options: AppOptions = {}, templates: readonly TemplateFor[] = []) {
  const root = mkdtempSync(join(tmpdir(), "fw-a-conformance-"));
  const files: Record<string, string> = { ...options.files, ...(options.flashErrorPage ? { "templates/error.html": FLASH_ERROR_PAGE } : {}) };
  for (const t of templates) files[join("templates", t.module, t.className, `${t.methodName}.html`)] = "template:{{ name }}";
  writeFiles(root, files);
  const config = mergeConfig(base, options.config);
  const handlers = options.handlers ?? [];
  const by = (kind: Handler["by"]) => handlers.filter((h) => h.by === kind);
  const plugins: HostPlugin[] = by("plugin").length ? [{ name: "conformance-handlers", middleware: () => by("plugin").map((h) => h.middleware) }] : [];
  const mounts = options.mount ? { [options.mount.path]: defineApp({ root, modules: options.mount.modules, config }) } : undefined;
  let app: Host;
  try {
    app = await createApp({ root, modules, config, plugins, ...(mounts ? { mounts } : {}) });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  for (const h of by("router")) app.router.register(h.path, [h.method], h.middleware);
  for (const h of by("middleware")) app.koa.use(h.middleware);
  const logged = recordLog(app);
  const server = await app.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    logged,
    async close() {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Records what the app logs at levels error, warn and fatal, with the error's stack. */
function recordLog(app: Host): string[] {
  const logged: string[] = [];
  const logger = app.logger as unknown as Record<string, unknown>;
  for (const level of ["error", "warn", "fatal"]) {
    logger[level] = (obj: { err?: { stack?: string } }, message: string) => logged.push(`${level}: ${message} ${obj?.err?.stack ?? ""}`);
  }
  return logged;
}

const contextOf = (view: object): Context => (view as { ctx: Context }).ctx;

/**
 * The adapter the shared conformance suite (`runConformance` from the conformance package) runs
 * against: fw-a's base class and decorators, an app served on 127.0.0.1, its security battery, its
 * result helpers and its CLI.
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
    start: (modules: ViewModule[], templates: readonly TemplateFor[]) => serve(modules, TEST_CONFIG, {}, templates),
    reply: (body: unknown, init: { status?: number; headers?: Record<string, string> }) => response.make(body, init),
    redirect: (location: string) => response.redirect(location),
    httpError: (status: number, message: string) => new HTTPError(status, message),
  },
  security: {
    start: (modules: ViewModule[], options?: AppOptions) => serve(modules, SECURE_CONFIG, options),
    csrfExempt: security.csrfExempt,
    cors: (settings: { readonly origin: string }) => security.cors(settings),
    csrfToken: (view: object) => csrfToken(contextOf(view)),
    session: (view: object) => contextOf(view).session as unknown as Record<string, unknown>,
  },
  cli: conformanceCli,
};
