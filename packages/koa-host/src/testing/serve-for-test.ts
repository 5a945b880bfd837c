import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Middleware } from "koa";
import type { ViewModule } from "routing-kernel";
import { mergeConfig } from "../config-merge.js";
import { E_SERVE_FOR_TEST } from "../errors.js";
import type { Host } from "../host.js";
import type { HostPlugin } from "../plugin.js";

/** What a framework gives {@link serveForTest}: how it builds and defines an app, and its template files. */
export interface ServeForTestFramework<Definition> {
  /** The framework's name, for the temporary root (`fw-a`). */
  readonly name: string;
  /** Builds an app (the framework's `createApp`). */
  createApp(options: {
    readonly root: string;
    readonly modules: ViewModule[];
    readonly config: Readonly<Record<string, unknown>>;
    readonly plugins: readonly HostPlugin[];
    readonly mounts?: Readonly<Record<string, Definition>>;
  }): Promise<Host>;
  /** Defines an app to mount (the framework's `defineApp`). */
  defineApp(options: {
    readonly root: string;
    readonly modules: ViewModule[];
    readonly config: Readonly<Record<string, unknown>>;
  }): Definition;
  /** The error page listing the flash messages, as a real layout does (`templates/error.html` and its text). */
  readonly flashErrorPage: { readonly file: string; readonly text: string };
  /** The template written for each route of `templates` (extension such as `html`, and text showing `name`). */
  readonly template?: { readonly extension: string; readonly text: string };
}

/** What a test adds to a served app (the shape of the conformance suite's `ConformanceAppOptions`, plus `templates`). */
export interface ServeForTestOptions {
  /** Config keys over the base config. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Answers outside the views: as a plugin's middleware, on the host's router, or as Koa middleware after the host's. */
  readonly handlers?: readonly {
    readonly by: "router" | "middleware" | "plugin";
    readonly method: string;
    readonly path: string;
    readonly middleware: Middleware;
  }[];
  /** An app of these modules mounted under `path`, in the same root and config. */
  readonly mount?: { readonly path: string; readonly modules: ViewModule[] };
  /** Files written into the root (path relative to it, text). */
  readonly files?: Readonly<Record<string, string>>;
  /** Writes the framework's {@link ServeForTestFramework.flashErrorPage}. */
  readonly flashErrorPage?: boolean;
  /** Routes that get the framework's {@link ServeForTestFramework.template} at `templates/<module>/<className>/<methodName>.<extension>`. */
  readonly templates?: readonly { readonly module: string; readonly className: string; readonly methodName: string }[];
}

/** An app served by {@link serveForTest}. */
export interface ServedForTest {
  /** Base URL such as `http://127.0.0.1:49152`. */
  readonly url: string;
  /** What the app logged at levels error, warn and fatal (`level: message stack`). */
  readonly logged: string[];
  /** Stops the app and removes its temporary root. */
  close(): Promise<void>;
}

/**
 * For framework authors (fw-a/testing and fw-b/testing build their conformance adapters on it),
 * not for apps: serves `modules` with the framework's `createApp` in a new temporary root holding
 * the files the test adds, with `config` merged under the test's own, its handlers in place and
 * its log lines of levels error, warn and fatal recorded, on 127.0.0.1 and a free port. The root is
 * removed by `close()`, or at once if the app fails to build.
 */
export async function serveForTest<Definition>(
  framework: ServeForTestFramework<Definition>,
  modules: ViewModule[],
  config: Readonly<Record<string, unknown>>,
  options: ServeForTestOptions = {},
): Promise<ServedForTest> {
  const root = mkdtempSync(join(tmpdir(), `${framework.name}-conformance-`));
  const removeRoot = () => rmSync(root, { recursive: true, force: true });
  const handlers = options.handlers ?? [];
  const by = (kind: "router" | "middleware" | "plugin") => handlers.filter((h) => h.by === kind);
  let host: Host;
  try {
    writeFiles(root, filesOf(framework, options));
    const merged = mergeConfig(config, options.config);
    const plugins: HostPlugin[] = by("plugin").length
      ? [{ name: "conformance-handlers", phases: { request: () => by("plugin").map((h) => h.middleware) } }]
      : [];
    const mounts = options.mount
      ? { [options.mount.path]: framework.defineApp({ root, modules: options.mount.modules, config: merged }) }
      : undefined;
    host = await framework.createApp({ root, modules, config: merged, plugins, ...(mounts ? { mounts } : {}) });
  } catch (error) {
    removeRoot();
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
      removeRoot();
    },
  };
}

/** The test's files, the flash error page if asked, and one template per listed route. */
function filesOf(framework: ServeForTestFramework<unknown>, options: ServeForTestOptions): Record<string, string> {
  const files: Record<string, string> = { ...options.files };
  if (options.flashErrorPage) files[framework.flashErrorPage.file] = framework.flashErrorPage.text;
  const templates = options.templates ?? [];
  const template = framework.template;
  if (templates.length && !template)
    throw new E_SERVE_FOR_TEST(framework.name, 'it gives no template for the routes of "templates"');
  for (const t of templates)
    files[join("templates", t.module, t.className, `${t.methodName}.${template?.extension}`)] = template?.text ?? "";
  return files;
}

function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Records what the host logs at levels error, warn and fatal, with the error's stack. */
function recordLog(host: Host): string[] {
  const logged: string[] = [];
  const logger = host.logger as unknown as Record<string, unknown>;
  for (const level of ["error", "warn", "fatal"]) {
    logger[level] = (obj: { err?: { stack?: string } }, message: string) =>
      logged.push(`${level}: ${message} ${obj?.err?.stack ?? ""}`);
  }
  return logged;
}
