import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Context } from "koa";
import { serveForTest, type ServeForTestFramework, type ServeForTestOptions } from "@fwkit/koa-host/testing";
import { csrfToken, getSession } from "@fwkit/security";
import type { ViewModule } from "routing-kernel";
import type { AppOptions } from "../app-options.js";
import type { Framework } from "../framework.js";

/** A plain app for the suite: quiet, no batteries (the routing cases send no CSRF token and need no database). */
const PLAIN = Object.freeze({
  env: "test",
  logRequests: false,
  logLevel: "silent",
  batteries: Object.freeze({ security: false, data: false, services: false }),
});
/** The same with the security battery on (cookie sessions, CSRF), for the security cases. */
const SECURE = Object.freeze({ ...PLAIN, batteries: Object.freeze({ security: true, data: false, services: false }) });
/** Declared schemas are checked by the data battery (an in-memory SQLite), with sessions for a refused form's messages. */
const SCHEMAS = Object.freeze({
  ...PLAIN,
  dbUrl: "sqlite::memory:",
  batteries: Object.freeze({ security: true, data: true, services: false }),
});

/** What a framework gives {@link frameworkConformance}: what differs between frameworks, nothing else. */
export interface ConformanceParts {
  /** The view base class. */
  readonly Base: abstract new (
    ...args: never[]
  ) => object;
  /** True when generated paths end with `/`. */
  readonly trailingSlash: boolean;
  /** Its verb, route and JSON decorators in its own idiom (the suite's `ConformanceDecorators`). */
  readonly decorators: object;
  /** Its reply, redirect and HTTP error helpers, and its XML decorator if it has one. */
  readonly results: {
    reply(body: unknown, init: { status?: number; headers?: Record<string, string> }): unknown;
    redirect(location: string): unknown;
    httpError(status: number, message: string): unknown;
    readonly xml?: unknown;
  };
  /** Its CSRF exemption, CORS, rate-limit and idempotency-key decorators. */
  readonly security: {
    readonly csrfExempt: unknown;
    readonly cors?: unknown;
    readonly rateLimit?: unknown;
    readonly idempotent?: unknown;
  };
  /** The Node arguments that run its CLI, and its names of the shared commands. */
  readonly cli: { readonly argv: readonly string[]; readonly commands: object };
  /** Its error page listing the flash messages (`templates/error.html` and its text), as a real layout does. */
  readonly flashErrorPage: { readonly file: string; readonly text: string };
  /** The template written for a route of the result cases (extension, and text rendering `template:` and `name`). */
  readonly template: { readonly extension: string; readonly text: string };
  /** Its query- and body-schema decorators (the suite's declared-schema cases). */
  readonly schemas: { readonly query: (schema: never) => unknown; readonly body: (schema: never) => unknown };
}

/** What a case adds to a served app (the suite's `ConformanceAppOptions`). */
type CaseOptions = Omit<ServeForTestOptions, "templates">;

const contextOf = (view: object): Context => (view as { ctx: Context }).ctx;

/**
 * The adapter the shared conformance suite (`runConformance(adapter)`) runs against, for a
 * framework made with `defineFramework`: apps served on 127.0.0.1 in a temporary folder by its
 * `createApp` (plain, or with the security battery, or with a template per route), the request's
 * CSRF token and session, and an app built as the development server's child builds it.
 */
export function frameworkConformance<Parts extends ConformanceParts>(framework: Framework, parts: Parts) {
  const served: ServeForTestFramework<ReturnType<Framework["defineApp"]>> = {
    name: framework.name,
    createApp: (options) => framework.createApp(options as AppOptions),
    defineApp: (options) => framework.defineApp(options as AppOptions),
    flashErrorPage: parts.flashErrorPage,
    template: parts.template,
  };
  return Object.freeze({
    name: framework.name,
    trailingSlash: parts.trailingSlash,
    Base: parts.Base as Parts["Base"],
    decorators: parts.decorators as Parts["decorators"],
    start: (modules: ViewModule[]) => serveForTest(served, modules, PLAIN),
    async build(modules: ViewModule[]): Promise<unknown> {
      const root = mkdtempSync(join(tmpdir(), `${framework.name}-build-`));
      try {
        const host = await framework.createApp({ root, modules, config: PLAIN });
        await host.close();
        return host;
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
    results: Object.freeze({
      ...(parts.results as Parts["results"]),
      start: (modules: ViewModule[], templates: ServeForTestOptions["templates"]) =>
        serveForTest(served, modules, PLAIN, { templates }),
    }),
    security: Object.freeze({
      ...(parts.security as Parts["security"]),
      start: (modules: ViewModule[], options?: CaseOptions) => serveForTest(served, modules, SECURE, options),
      csrfToken: (view: object) => csrfToken(contextOf(view)),
      session: (view: object): Record<string, unknown> => getSession(contextOf(view)),
    }),
    cli: Object.freeze({
      ...(parts.cli as Parts["cli"]),
      async develop(root: string, modules: ViewModule[], config: Readonly<Record<string, unknown>>): Promise<void> {
        const host = await framework.createApp({
          root,
          modules,
          config: { env: "development", logLevel: "silent", logRequests: false, ...config },
        });
        await host.close();
      },
    }),
    schemas: Object.freeze({
      ...(parts.schemas as Parts["schemas"]),
      start: (modules: ViewModule[]) => serveForTest(served, modules, SCHEMAS),
    }),
    /** Nothing is skipped: every framework of the kit passes every case of the suite. */
    skip: Object.freeze([]) as readonly { readonly reason: string; readonly tests: readonly string[] }[],
  });
}
