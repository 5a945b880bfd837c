/**
 * Serving a framework's app for the suite, shared by the frameworks' adapters: files written into
 * a temporary app folder, the case's config over the adapter's, the case's handlers registered
 * outside the views, an optional mounted app, the app's error log recorded, and the app listening
 * on 127.0.0.1. A framework is known here only through the functions and names it passes in.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ViewModule } from "routing-kernel";
import type { ConformanceAppOptions, ConformanceHandler, ConformanceServer, ConformanceTemplate } from "./adapter.js";

/** The Koa middleware of a {@link ConformanceHandler}. */
export type ConformanceMiddleware = ConformanceHandler["middleware"];

/** The plugin {@link serveApp} gives `createApp` for the handlers registered `by: "plugin"` (a koa-host `HostPlugin`). */
export interface ServedAppPlugin {
  readonly name: string;
  middleware(): readonly ConformanceMiddleware[];
}

/** What {@link serveApp} gives the framework's `createApp`, and (without plugins and mounts) its `defineApp`. */
export interface ServedAppOptions<Definition> {
  /** The temporary app folder. */
  readonly root: string;
  readonly modules: ViewModule[];
  /** The adapter's config with the case's over it. */
  readonly config: Record<string, unknown>;
  readonly plugins?: readonly ServedAppPlugin[];
  /** The case's mounted app, made by the framework's `defineApp`. */
  readonly mounts?: Readonly<Record<string, Definition>>;
}

/** The part of a built app (a koa-host `Host`) that {@link serveApp} uses. */
export interface ServableApp {
  readonly router: { register(path: string, methods: string[], middleware: ConformanceMiddleware): unknown };
  readonly koa: { use(middleware: ConformanceMiddleware): unknown };
  /** A pino logger; its `error`, `warn` and `fatal` are replaced to record what the app logs. */
  readonly logger: object;
  listen(port: number, hostname: string): Promise<{ address(): unknown }>;
  close(): Promise<void>;
}

/** A framework as {@link serveApp} builds its apps. */
export interface ServedFramework<App extends ServableApp, Definition> {
  /** The framework's name, the start of the temporary folder's name (`fw-a-conformance-...`). */
  readonly name: string;
  /** The framework's `createApp`. */
  readonly createApp: (options: ServedAppOptions<Definition>) => Promise<App>;
  /** The framework's `defineApp`, for the case's mounted app. */
  readonly defineApp: (options: ServedAppOptions<Definition>) => Definition;
  /** Layers config objects, later over earlier (the kit's `mergeConfig`). */
  readonly mergeConfig: (base: Readonly<Record<string, unknown>>, over: Readonly<Record<string, unknown>> | undefined) => Record<string, unknown>;
  /** The error page that lists the flash messages, in the framework's template language: its path in the app folder and its text. */
  readonly flashErrorPage: { readonly path: string; readonly text: string };
  /**
   * The result cases' template, in the framework's template language: the file extension
   * (`.html`) of `templates/<module>/<className>/<methodName>` and a text rendering `template:`
   * then the `name` variable. Needed only when {@link serveApp} is given templates.
   */
  readonly template?: { readonly extension: string; readonly text: string };
}

/** A served app: its URL, what it logged at levels error, warn and fatal, and `close`. */
export interface ServedApp extends ConformanceServer {
  readonly logged: readonly string[];
}

/** Writes the files (relative path to text) into `root`, making their folders. */
function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** The files of the app folder: the case's, the flash error page if asked, a template per listed route. */
function filesOf(framework: ServedFramework<ServableApp, unknown>, options: ConformanceAppOptions, templates: readonly ConformanceTemplate[]): Record<string, string> {
  const files: Record<string, string> = { ...options.files };
  if (options.flashErrorPage) files[framework.flashErrorPage.path] = framework.flashErrorPage.text;
  const template = framework.template;
  if (templates.length > 0 && !template) throw new TypeError(`serveApp: ${framework.name} was given templates but no template extension and text`);
  for (const t of templates) if (template) files[join("templates", t.module, t.className, `${t.methodName}${template.extension}`)] = template.text;
  return files;
}

/** Records what the app logs at levels error, warn and fatal, with the error's stack. */
function recordLog(app: ServableApp): string[] {
  const logged: string[] = [];
  const logger = app.logger as Record<string, unknown>;
  for (const level of ["error", "warn", "fatal"]) {
    logger[level] = (obj: { err?: { stack?: string } }, message: string) => logged.push(`${level}: ${message} ${obj?.err?.stack ?? ""}`);
  }
  return logged;
}

/**
 * Serves the modules as the framework builds apps, in a temporary folder removed on `close` (or
 * when the app fails to build): with the case's files (and flash error page), a template per
 * listed route, `config` with the case's config over it, the case's handlers (by a plugin, on the
 * router, or with `koa.use`) and mounted app, recording the app's error log, on 127.0.0.1 and an
 * ephemeral port.
 */
export async function serveApp<App extends ServableApp, Definition>(
  framework: ServedFramework<App, Definition>,
  modules: ViewModule[],
  config: Readonly<Record<string, unknown>>,
  options: ConformanceAppOptions = {},
  templates: readonly ConformanceTemplate[] = [],
): Promise<ServedApp> {
  const root = mkdtempSync(join(tmpdir(), `${framework.name}-conformance-`));
  const handlers = options.handlers ?? [];
  let app: App;
  try {
    writeFiles(root, filesOf(framework as ServedFramework<ServableApp, unknown>, options, templates));
    const merged = framework.mergeConfig(config, options.config);
    const pluginHandlers = handlers.filter((h) => h.by === "plugin");
    const plugins: ServedAppPlugin[] = pluginHandlers.length ? [{ name: "conformance-handlers", middleware: () => pluginHandlers.map((h) => h.middleware) }] : [];
    const mounts = options.mount ? { [options.mount.path]: framework.defineApp({ root, modules: options.mount.modules, config: merged }) } : undefined;
    app = await framework.createApp({ root, modules, config: merged, plugins, ...(mounts ? { mounts } : {}) });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  for (const h of handlers.filter((h) => h.by === "router")) app.router.register(h.path, [h.method], h.middleware);
  for (const h of handlers.filter((h) => h.by === "middleware")) app.koa.use(h.middleware);
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
