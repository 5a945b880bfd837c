import type { Context, Middleware } from "koa";
import compose from "koa-compose";
import FindMyWay from "find-my-way";
import { patternParams, patternShape, sortVerbs, toggleTrailingSlash, type Route, type RouteTable, type Verb } from "routing-kernel";
import { E_BAD_URL } from "./errors.js";
import { HTTPError } from "./http-error.js";
import { prepareInvoker, type RouteInvoker } from "./invoke.js";
import { overriddenMethod } from "./override.js";
import type { RespondFn } from "./responder.js";

/** Per-verb handler of one path shape. */
interface VerbHandler {
  readonly route: Route;
  readonly names: readonly string[];
  /** Answers the request; a promise only when something on the way was asynchronous. */
  readonly run: (ctx: Context, values: readonly string[]) => void | Promise<void>;
}

/** Everything one path shape answers, decided at start-up. */
interface PathEntry {
  readonly handlers: Partial<Record<string, VerbHandler>>;
  readonly allow: string;
  readonly keys: readonly string[];
}

/** Options of {@link createDispatcher}. */
export interface DispatchOptions {
  readonly table: RouteTable;
  /** The framework's responder for a route, decided once per route. */
  readonly respond: (route: Route) => RespondFn;
  /** Middleware run after matching and before the view, decided once per route (plugins). */
  readonly routeMiddleware: (route: Route) => readonly Middleware[];
  /** URL prefix of the whole app when it is mounted inside another (default: none). */
  readonly basePath?: string;
}

/**
 * The view-route dispatcher: one Koa middleware around one find-my-way radix tree, built once at
 * start-up, so matching cost does not grow with the number of routes. It answers HEAD from GET,
 * OPTIONS with `Allow`, 405 with `Allow`, 308 to the other-slash form when only that one matches
 * (looked up on a miss, so nothing extra is registered), and applies the
 * method override on POST. Unmatched requests fall through to `next` (hand-written routes).
 */
export function createDispatcher(options: DispatchOptions): Middleware {
  const router = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, maxParamLength: 2048 });
  const shapes = new Map<string, { verbs: Map<Verb, VerbHandler> }>();
  const routeChains = new Map<Route, Middleware[]>();

  for (const entry of options.table.entries) {
    const { route, pattern } = entry;
    const shape = patternShape(pattern);
    const names = patternParams(pattern);
    let chain = routeChains.get(route);
    if (!chain) {
      chain = [...options.routeMiddleware(route)];
      routeChains.set(route, chain);
    }
    const invoke = prepareInvoker(route, names, options.respond(route));
    const handler: VerbHandler = { route, names, run: withMiddleware(chain, invoke) };
    const slot = shapes.get(shape) ?? { verbs: new Map<Verb, VerbHandler>() };
    for (const verb of route.verbs) if (!slot.verbs.has(verb)) slot.verbs.set(verb, handler);
    shapes.set(shape, slot);
  }

  for (const [shape, slot] of shapes) {
    const verbs = sortVerbs(slot.verbs.keys());
    if (verbs.includes("GET") && !verbs.includes("HEAD")) verbs.splice(1, 0, "HEAD");
    if (!verbs.includes("OPTIONS")) verbs.push("OPTIONS");
    const handlers: Partial<Record<string, VerbHandler>> = Object.fromEntries(slot.verbs);
    if (handlers["GET"] && !handlers["HEAD"]) handlers["HEAD"] = handlers["GET"];
    const store: PathEntry = { handlers, allow: verbs.join(", "), keys: keysOf(shape) };
    router.on("GET", toFindMyWay(shape), noop, store);
  }

  /** The entry and parameters of a path; an empty segment never fills a parameter (`/doc/` is not `/doc/:id`). */
  const match = (path: string) => {
    const found = router.find("GET", path);
    if (!found) return undefined;
    const params = found.params as Record<string, string | undefined>;
    const keys = (found.store as PathEntry).keys;
    for (let i = 0; i < keys.length; i++) if (!params[keys[i]!]) return undefined;
    return { entry: found.store as PathEntry, params };
  };

  const basePath = options.basePath ?? "";
  // Not async: a synchronous view answers without an extra promise (koa-compose turns a throw here
  // into a rejection, as for an async middleware).
  return (ctx, next) => {
    let path = ctx.path;
    if (basePath) {
      if (path !== basePath && !path.startsWith(`${basePath}/`)) return next();
      path = path.slice(basePath.length) || "/";
    }
    if (path.includes("%")) {
      try {
        decodeURIComponent(path);
      } catch {
        throw new E_BAD_URL(path);
      }
    }
    const found = match(path);
    if (!found) {
      // Only a path that matches nothing is redirected: to its other-slash twin, when that matches.
      const twin = toggleTrailingSlash(path);
      if (!twin || !match(twin)) return next();
      const target = basePath + twin;
      ctx.status = 308;
      ctx.set("Location", ctx.querystring ? `${target}?${ctx.querystring}` : target);
      ctx.body = `Redirecting to ${target}`;
      return;
    }
    const { entry, params } = found;
    const keys = entry.keys;
    const method = ctx.method === "POST" ? overriddenMethod(ctx) : ctx.method;
    const handler = entry.handlers[method];
    if (!handler) {
      if (method === "OPTIONS") {
        ctx.status = 204;
        ctx.set("Allow", entry.allow);
        return;
      }
      throw HTTPError.MethodNotAllowed(`${method} is not allowed here; use ${entry.allow}.`, { headers: { Allow: entry.allow } });
    }
    const values: string[] = new Array(keys.length);
    const named: Record<string, string> = {};
    for (let i = 0; i < keys.length; i++) {
      const value = params[keys[i]!] ?? "";
      values[i] = value;
      named[handler.names[i]!] = value;
    }
    ctx.params = named;
    ctx.state["route"] = handler.route;
    return handler.run(ctx, values);
  };
}

function noop(): void {}

/** find-my-way wants one name per parameter position; shapes use `:` alone. */
function toFindMyWay(shape: string): string {
  let i = 0;
  return shape
    .split("/")
    .map((segment) => (segment === ":" ? `:p${i++}` : segment.replace(/:/g, "::")))
    .join("/");
}

function keysOf(shape: string): string[] {
  return shape
    .split("/")
    .filter((segment) => segment === ":")
    .map((_, i) => `p${i}`);
}

const VALUES = Symbol("koa-host.values");

function withMiddleware(chain: readonly Middleware[], invoke: RouteInvoker): VerbHandler["run"] {
  if (chain.length === 0) return invoke;
  // Composed once at start-up; the path values ride on the context to the last step.
  const composed = compose([...chain, (ctx: Context) => invoke(ctx, (ctx as unknown as Record<symbol, string[]>)[VALUES]!)]);
  return (ctx, values) => {
    (ctx as unknown as Record<symbol, readonly string[]>)[VALUES] = values;
    return composed(ctx) as Promise<void>;
  };
}

declare module "koa" {
  interface DefaultContext {
    /** Path parameters of the matched view route, by name. */
    params: Record<string, string>;
  }
}
