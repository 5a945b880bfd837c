import type { Context, Middleware } from "koa";
import compose from "koa-compose";
import FindMyWay from "find-my-way";
import { type Route, type RouteTable, type Verb } from "routing-kernel";
import { patternParams, patternShape, sortVerbs, toggleTrailingSlash } from "routing-kernel/plugin";
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
  /** The route's preflight middleware (its CORS policy), run before the automatic OPTIONS answer. */
  readonly preflight: Middleware | undefined;
}

/** What the dispatcher does with a request, worked out once and shared with {@link Dispatcher.lookup}. */
type Resolution =
  | { readonly kind: "view"; readonly handler: VerbHandler; readonly values: readonly string[] }
  | { readonly kind: "redirect"; readonly target: string }
  | { readonly kind: "options"; readonly entry: PathEntry }
  | { readonly kind: "not-allowed"; readonly entry: PathEntry; readonly method: string };

/** What the view dispatcher will do with a request, for app-wide middleware that runs before it. */
export interface RouteLookup {
  /** The view route that will answer (after method override), when one will. */
  readonly route: Route | undefined;
  /** True when the dispatcher answers by itself without running a view (308, 405, automatic OPTIONS). */
  readonly answersItself: boolean;
  /** For a CORS preflight answered automatically: the route of the verb it asks about. */
  readonly preflightFor?: Route;
}

/** The dispatcher middleware, and its lookup for middleware that runs before it. */
export interface Dispatcher {
  readonly middleware: Middleware;
  /**
   * What the dispatcher will do with this request; `undefined` when no view path matches (the
   * request goes on to hand-written routes). The answer is kept on the context, so the dispatcher
   * does not match the same request twice.
   */
  lookup(ctx: Context): RouteLookup | undefined;
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
  /**
   * Middleware run for a route before the automatic OPTIONS answer of a CORS preflight that asks
   * for the route's verb (plugins: the route's own CORS policy), decided once per route.
   */
  readonly preflight?: (route: Route) => readonly Middleware[];
}

/**
 * The view-route dispatcher: one Koa middleware around a map of static paths and one find-my-way
 * radix tree, built once at start-up, so matching cost does not grow with the number of routes. It answers HEAD from GET,
 * OPTIONS with `Allow`, 405 with `Allow`, 308 to the other-slash form when only that one matches
 * (looked up on a miss, so nothing extra is registered), and applies the
 * method override on POST. Unmatched requests fall through to `next` (hand-written routes).
 * @internal the host wires it; not exported from the package.
 */
export function createDispatcher(options: DispatchOptions): Middleware {
  return createDispatch(options).middleware;
}

/** {@link createDispatcher} with its {@link Dispatcher.lookup}, for the host. @internal */
export function createDispatch(options: DispatchOptions): Dispatcher {
  const router = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, maxParamLength: 2048 });
  // The handlers of each path shape by verb, in the order verbs were first given.
  const shapes = new Map<string, Partial<Record<string, VerbHandler>>>();
  const routeChains = new Map<Route, readonly Middleware[]>();
  const preflights = new Map<Route, Middleware | undefined>();

  for (const entry of options.table.entries) {
    const { route, pattern } = entry;
    const shape = patternShape(pattern);
    const names = patternParams(pattern);
    let chain = routeChains.get(route);
    if (!chain) {
      const middleware = options.routeMiddleware(route);
      chain = middleware.length === 0 ? NO_MIDDLEWARE : [...middleware];
      routeChains.set(route, chain);
    }
    const invoke = prepareInvoker(route, names, options.respond(route));
    if (!preflights.has(route)) {
      const chain = options.preflight?.(route) ?? NO_MIDDLEWARE;
      preflights.set(route, chain.length === 0 ? undefined : compose([...chain]));
    }
    const handler: VerbHandler = { route, names, run: withMiddleware(chain, invoke), preflight: preflights.get(route) };
    let handlers = shapes.get(shape);
    if (!handlers) {
      handlers = {};
      shapes.set(shape, handlers);
    }
    for (const verb of route.verbs) handlers[verb] ??= handler;
  }

  // Static paths (most of an app's) are answered from a map: registering each in find-my-way costs
  // two compiled functions at start-up. They join the router only if a path needs its own URL
  // handling (see `match`).
  const statics = new Map<string, PathEntry>();
  const allows = new Map<string, string>();
  for (const [shape, handlers] of shapes) {
    const allow = allowOf(Object.keys(handlers) as Verb[], allows);
    if (handlers["GET"] && !handlers["HEAD"]) handlers["HEAD"] = handlers["GET"];
    const store: PathEntry = { handlers, allow, keys: keysOf(shape) };
    if (isPlainStatic(shape)) statics.set(shape, store);
    else router.on("GET", toFindMyWay(shape), noop, store);
  }
  let staticsInRouter = false;

  /** The router's answer: an entry and its parameters; an empty segment never fills a parameter (`/doc/` is not `/doc/:id`). */
  const routerMatch = (path: string) => {
    const found = router.find("GET", path);
    if (!found) return undefined;
    const params = found.params as Record<string, string | undefined>;
    const keys = (found.store as PathEntry).keys;
    for (let i = 0; i < keys.length; i++) if (!params[keys[i]!]) return undefined;
    return { entry: found.store as PathEntry, params };
  };

  /**
   * The entry and parameters of a path, as the router holding every shape would answer. For a path
   * that starts with `/` and has no `?` or `#` (every path Koa gives), the router compares static
   * routes with the path itself, or with its `decodeURI` form when it has escapes other than those
   * of reserved characters (with those, its form keeps a `%` and matches no static path of the
   * map): a static route that equals it wins over any parameter. Other paths go to the router
   * after the static paths have joined it.
   */
  const match = (path: string) => {
    if (path.charCodeAt(0) === SLASH && !path.includes("?") && !path.includes("#")) {
      const key = path.includes("%") ? decodedForStatics(path) : path;
      const entry = key === undefined ? undefined : statics.get(key);
      if (entry) return { entry, params: NO_PARAMS };
      return routerMatch(path);
    }
    if (!staticsInRouter) {
      staticsInRouter = true;
      for (const [shape, store] of statics) router.on("GET", toFindMyWay(shape), noop, store);
    }
    return routerMatch(path);
  };

  const basePath = options.basePath ?? "";

  /** What this request gets: a view, a redirect, an automatic answer, or undefined (not a view path). */
  const resolve = (ctx: Context): Resolution | undefined => {
    let path = ctx.path;
    if (basePath) {
      if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
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
      if (!twin || !match(twin)) return undefined;
      return { kind: "redirect", target: basePath + twin };
    }
    const { entry, params } = found;
    const keys = entry.keys;
    const method = ctx.method === "POST" ? overriddenMethod(ctx) : ctx.method;
    const handler = entry.handlers[method];
    if (!handler) return method === "OPTIONS" ? { kind: "options", entry } : { kind: "not-allowed", entry, method };
    const values: string[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) values[i] = params[keys[i]!] ?? "";
    return { kind: "view", handler, values };
  };

  // Not async: a synchronous view answers without an extra promise (koa-compose turns a throw here
  // into a rejection, as for an async middleware).
  const middleware: Middleware = (ctx, next) => {
    const held = (ctx as unknown as Record<symbol, HeldResolution | undefined>)[RESOLVED];
    const resolution = held && held.path === ctx.path && held.method === ctx.method ? held.resolution : resolve(ctx);
    if (!resolution) return next();
    switch (resolution.kind) {
      case "redirect": {
        const target = resolution.target;
        ctx.status = 308;
        ctx.set("Location", ctx.querystring ? `${target}?${ctx.querystring}` : target);
        ctx.body = `Redirecting to ${target}`;
        return;
      }
      case "options": {
        const { entry } = resolution;
        const answer = () => {
          ctx.status = 204;
          ctx.set("Allow", entry.allow);
        };
        // A CORS preflight gets the policy of the route it asks about.
        const asked = ctx.get("Access-Control-Request-Method");
        const preflight = asked ? entry.handlers[asked.toUpperCase()]?.preflight : undefined;
        if (!preflight) return answer();
        return preflight(ctx, async () => answer()) as Promise<void>;
      }
      case "not-allowed": {
        const allow = resolution.entry.allow;
        throw HTTPError.MethodNotAllowed(`${resolution.method} is not allowed here; use ${allow}.`, { headers: { Allow: allow }, code: "E_METHOD_NOT_ALLOWED" });
      }
      default: {
        const { handler, values } = resolution;
        const named: Record<string, string> = {};
        for (let i = 0; i < values.length; i++) named[handler.names[i]!] = values[i]!;
        ctx.params = named;
        ctx.state["route"] = handler.route;
        return handler.run(ctx, values);
      }
    }
  };

  return {
    middleware,
    lookup(ctx) {
      const slot = ctx as unknown as Record<symbol, HeldResolution | undefined>;
      let held = slot[RESOLVED];
      if (!held || held.path !== ctx.path || held.method !== ctx.method) {
        held = { path: ctx.path, method: ctx.method, resolution: resolve(ctx) };
        slot[RESOLVED] = held;
      }
      const resolution = held.resolution;
      if (!resolution) return undefined;
      if (resolution.kind === "view") return { route: resolution.handler.route, answersItself: false };
      if (resolution.kind === "options") {
        const asked = ctx.get("Access-Control-Request-Method");
        const route = asked ? resolution.entry.handlers[asked.toUpperCase()]?.route : undefined;
        return route ? { route: undefined, answersItself: true, preflightFor: route } : { route: undefined, answersItself: true };
      }
      return { route: undefined, answersItself: true };
    },
  };
}

/** A resolution kept on the context by `lookup`, valid while path and method are unchanged. */
interface HeldResolution {
  readonly path: string;
  readonly method: string;
  readonly resolution: Resolution | undefined;
}

const RESOLVED = Symbol("koa-host.resolved");

function noop(): void {}

const SLASH = 47;
const NO_PARAMS: Readonly<Record<string, string | undefined>> = Object.freeze({});
const NO_KEYS: readonly string[] = Object.freeze([]);
const NO_MIDDLEWARE: readonly Middleware[] = Object.freeze([]);
// Escapes find-my-way leaves encoded in the path it matches (reserved characters and `%` itself).
const RESERVED_ESCAPE = /%(?:2[3-6bcfBCF]|3[abdfABDF]|40)/;

/** A shape the static map can answer: no parameter, and nothing find-my-way reads specially. */
function isPlainStatic(shape: string): boolean {
  return shape.charCodeAt(0) === SLASH && !shape.includes(":") && !shape.includes("*") && !shape.includes("%");
}

/** The path find-my-way compares static routes with, when it can equal one of the map's; else undefined. */
function decodedForStatics(path: string): string | undefined {
  if (RESERVED_ESCAPE.test(path)) return undefined;
  try {
    return decodeURI(path);
  } catch {
    return undefined;
  }
}

/** The `Allow` list of a shape's verbs (HEAD with GET, OPTIONS always), one string per verb set. */
function allowOf(verbs: readonly Verb[], cache: Map<string, string>): string {
  const key = verbs.join();
  let allow = cache.get(key);
  if (allow === undefined) {
    const sorted = sortVerbs(verbs);
    if (sorted.includes("GET") && !sorted.includes("HEAD")) sorted.splice(1, 0, "HEAD");
    if (!sorted.includes("OPTIONS")) sorted.push("OPTIONS");
    allow = sorted.join(", ");
    cache.set(key, allow);
  }
  return allow;
}

/** find-my-way wants one name per parameter position; shapes use `:` alone. */
function toFindMyWay(shape: string): string {
  let i = 0;
  return shape
    .split("/")
    .map((segment) => (segment === ":" ? `:p${i++}` : segment.replace(/:/g, "::")))
    .join("/");
}

function keysOf(shape: string): readonly string[] {
  if (!shape.includes(":")) return NO_KEYS;
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
