/**
 * A plain Koa app for the security tests: view classes go through the real routing kernel (so the
 * decorators' tags reach its `route` phase), the plugin is set up as a host would, and the app
 * listens on 127.0.0.1. No koa-host: the package must work on bare Koa.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa, { type Context, type Middleware } from "koa";
import type { PhaseContext } from "@fwkit/koa-host/plugin";
import { buildRouteTable, defineConventions, restrictVerbs, type Route, type ViewClass } from "routing-kernel";
import { securityPlugin, type SecurityPlugin, type SecurityPluginOptions } from "../../src/index.js";

/** Base class of test views: a new instance per request, with `ctx`. */
export class View {
  ctx!: Context;
}

/** Restricts a test view method to POST / PUT / DELETE (the frameworks' `request.post` etc.). */
export const post = restrictVerbs("post", ["POST"]);
export const put = restrictVerbs("put", ["PUT"]);
export const del = restrictVerbs("delete", ["DELETE"]);

/** Users known to the test apps. */
export const USERS: Record<string, { id: string; name: string; password: string }> = {
  "1": { id: "1", name: "alice", password: "wonderland" },
  "2": { id: "2", name: "bob", password: "builder" },
};

/** A logger that keeps what it is told, for assertions. */
export function memoryLogger() {
  const lines: string[] = [];
  const log = (level: string) => (first: unknown, second?: unknown) => {
    lines.push(`${level} ${typeof first === "string" ? first : String(second ?? "")}`);
  };
  return { lines, logger: { info: log("info"), warn: log("warn"), error: log("error"), debug: log("debug") } };
}

/** Parses urlencoded and JSON bodies (what koa-body does in the host), nothing more. */
const bodyParser: Middleware = async (ctx, next) => {
  if (ctx.method !== "GET" && ctx.method !== "HEAD") {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    if (ctx.is("application/x-www-form-urlencoded"))
      (ctx.request as { body?: unknown }).body = Object.fromEntries(new URLSearchParams(text));
    else if (ctx.is("json") && text) (ctx.request as { body?: unknown }).body = JSON.parse(text);
  }
  await next();
};

/**
 * Dispatches exact paths to view methods, with the plugin's route middleware in front; `lookup`
 * answers what koa-host's `ctx.runtime.lookupRoute` does (the app-wide CSRF check asks it).
 */
function dispatcher(
  routes: readonly Route[],
  plugin: SecurityPlugin,
): { middleware: Middleware; lookup: (ctx: Context) => { route: Route; answersItself: false } | undefined } {
  const handlers = new Map<string, Middleware>();
  const byKey = new Map<string, Route>();
  for (const route of routes) {
    const invoke: Middleware = async (ctx) => {
      ctx.state["route"] = route;
      const view = new (route.viewClass as unknown as new () => View)();
      view.ctx = ctx;
      const result: unknown = await (view as unknown as Record<string, () => unknown>)[route.methodName]!();
      if (result === undefined) {
        if (ctx.body === undefined && ctx.status === 404) ctx.status = 204;
      } else ctx.body = result;
    };
    const extra = plugin.phases?.route?.(route);
    const handler: Middleware = extra ? (ctx, next) => extra(ctx, () => invoke(ctx, next)) : invoke;
    for (const pattern of route.patterns) {
      for (const verb of route.verbs) {
        handlers.set(`${verb} ${pattern}`, handler);
        byKey.set(`${verb} ${pattern}`, route);
      }
    }
  }
  return {
    middleware: async (ctx, next) => {
      const handler =
        handlers.get(`${ctx.method} ${ctx.path}`) ??
        (ctx.method === "HEAD" ? handlers.get(`GET ${ctx.path}`) : undefined);
      if (handler) await handler(ctx, next);
      else await next();
    },
    lookup: (ctx) => {
      const route = byKey.get(`${ctx.method} ${ctx.path}`);
      return route ? { route, answersItself: false } : undefined;
    },
  };
}

/** A running test app. */
export interface TestApp {
  readonly url: string;
  readonly plugin: SecurityPlugin;
  readonly koa: Koa;
  readonly logLines: string[];
  close(): Promise<void>;
}

/** Options of {@link startApp}. */
export interface StartAppOptions {
  /** View classes by export name. */
  readonly views: Record<string, ViewClass>;
  /** Plugin options (config keys and user hooks). */
  readonly security?: SecurityPluginOptions;
  /** App config (as the host resolves it). */
  readonly config?: Record<string, unknown>;
  /** Trust X-Forwarded-For (Koa `proxy`). */
  readonly proxy?: boolean;
  /** Middleware in front of everything else (an error handler as koa-host's, for instance). */
  readonly outer?: readonly Middleware[];
}

/** Users loaded by id from {@link USERS}. */
export const userHooks: SecurityPluginOptions = {
  loadUser: (id) => USERS[id],
};

/** Builds the route table, sets the plugin up and listens on 127.0.0.1. */
export async function startApp(options: StartAppOptions): Promise<TestApp> {
  const table = buildRouteTable({
    conventions: defineConventions({ baseClass: View, trailingSlash: false, reservedNames: ["ctx"] }),
    modules: [{ name: "main", exports: options.views }],
  });
  const plugin = securityPlugin({ ...userHooks, ...options.security });
  const { lines, logger } = memoryLogger();
  const config = { env: "test", secretKey: "test-secret-key-0123456789abcdef", root: process.cwd(), ...options.config };
  const context = { config, logger, table } as unknown as PhaseContext;
  await plugin.setup!(context);
  const koa = new Koa({ proxy: options.proxy ?? false });
  koa.silent = true;
  for (const middleware of options.outer ?? []) koa.use(middleware);
  koa.use(bodyParser);
  for (const middleware of plugin.phases!.request!(context)) koa.use(middleware);
  const dispatch = dispatcher(table.routes, plugin);
  Object.defineProperty(koa.context, "runtime", { value: { basePath: "", lookupRoute: dispatch.lookup } });
  koa.use(dispatch.middleware);
  const server: Server = await new Promise((resolve) => {
    const listening = koa.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    plugin,
    koa,
    logLines: lines,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await plugin.close!();
    },
  };
}
