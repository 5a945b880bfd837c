import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Context, Middleware } from "koa";
import type { Host } from "@fwkit/koa-host";
import { mergeConfig, type HostPlugin } from "@fwkit/koa-host/plugin";
import { csrfToken } from "@fwkit/security";
import type { ViewModule } from "routing-kernel";
import { createApp, defineApp } from "../app.js";
import { cors, csrfExempt } from "../decorators/index.js";

/** An answer outside the views (the suite's `ConformanceHandler`). */
interface Handler {
  readonly by: "router" | "middleware" | "plugin";
  readonly method: string;
  readonly path: string;
  readonly middleware: Middleware;
}

/** What a conformance case adds to a served app (the suite's `ConformanceAppOptions`). */
export interface AppOptions {
  readonly config?: Readonly<Record<string, unknown>>;
  readonly handlers?: readonly Handler[];
  readonly mount?: { readonly path: string; readonly modules: ViewModule[] };
  readonly files?: Readonly<Record<string, string>>;
  readonly flashErrorPage?: boolean;
}

/** The security battery on (cookie sessions, CSRF), the others off, quiet. */
const SECURE = Object.freeze({ env: "test", logRequests: false, batteries: Object.freeze({ security: true, data: false, services: false }) });
/** fw-b's error page (Pug) listing the flash messages, as a real layout does. */
const FLASH_ERROR_PAGE = "h1 #{status} #{title}\neach m in flash_messages || []\n  p= m.message\np= message\n";
const contextOf = (view: object): Context => (view as { ctx: Context }).ctx;

/** Records what the app logs at levels error, warn and fatal, with the error's stack. */
function recordLog(host: Host): string[] {
  const logged: string[] = [];
  const logger = host.logger as unknown as Record<string, unknown>;
  for (const level of ["error", "warn", "fatal"]) {
    logger[level] = (obj: { err?: { stack?: string } }, message: string) => logged.push(`${level}: ${message} ${obj?.err?.stack ?? ""}`);
  }
  return logged;
}

/** Serves the modules with the security battery on and what the case adds, in a temporary root. */
async function serveSecure(modules: ViewModule[], options: AppOptions = {}) {
  const root = mkdtempSync(join(tmpdir(), "fw-b-conformance-"));
  const files: Record<string, string> = { ...options.files, ...(options.flashErrorPage ? { "templates/error.pug": FLASH_ERROR_PAGE } : {}) };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const config = mergeConfig(SECURE, options.config);
  const handlers = options.handlers ?? [];
  const by = (kind: Handler["by"]) => handlers.filter((h) => h.by === kind);
  const plugins: HostPlugin[] = by("plugin").length ? [{ name: "conformance-handlers", middleware: () => by("plugin").map((h) => h.middleware) }] : [];
  const mounts = options.mount ? { [options.mount.path]: defineApp({ root, modules: options.mount.modules, config }) } : undefined;
  let host: Host;
  try {
    host = await createApp({ root, modules, config, plugins, ...(mounts ? { mounts } : {}) });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  for (const h of by("router")) host.router.register(h.path, [h.method], h.middleware);
  for (const h of by("middleware")) host.koa.use(h.middleware);
  const logged = recordLog(host);
  const server = await host.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    logged,
    async close() {
      await host.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * The security part of fw-b's conformance adapter: apps with cookie sessions and CSRF on (plus the
 * config, answers outside the views, mounted app and files a case adds), `@csrfExempt`, `@cors`,
 * and the token and session of the request a view serves.
 */
export const conformanceSecurity = Object.freeze({
  start: serveSecure,
  csrfExempt,
  cors: (settings: { readonly origin: string }) => cors(settings),
  csrfToken: (view: object) => csrfToken(contextOf(view)),
  session: (view: object) => contextOf(view).session as unknown as Record<string, unknown>,
});
