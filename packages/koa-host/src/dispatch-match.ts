/**
 * The view routes' paths, matched: one map of static paths and one find-my-way radix tree, built
 * once at start-up, so matching cost does not grow with the number of routes.
 */
import type { Context, Middleware } from "koa";
import compose from "koa-compose";
import FindMyWay from "find-my-way";
import type { Route, RouteTable, Verb } from "routing-kernel";
import { patternParams, patternShape, sortVerbs } from "routing-kernel/plugin";
import { prepareInvoker, type RouteInvoker } from "./invoke.js";
import type { RespondFn } from "./responder.js";
import { defineSlot } from "./slot.js";

/** Per-verb handler of one path shape. */
export interface VerbHandler {
  readonly route: Route;
  readonly names: readonly string[];
  /** Answers the request; a promise only when something on the way was asynchronous. */
  readonly run: (ctx: Context, values: readonly string[]) => void | Promise<void>;
  /** The route's preflight middleware (its CORS policy), run before the automatic OPTIONS answer. */
  readonly preflight: Middleware | undefined;
}

/** Everything one path shape answers, decided at start-up. */
export interface PathEntry {
  readonly handlers: Partial<Record<string, VerbHandler>>;
  readonly allow: string;
  readonly keys: readonly string[];
}

/** A matched path: its entry and its parameters by find-my-way's names. */
export interface PathMatch {
  readonly entry: PathEntry;
  readonly params: Readonly<Record<string, string | undefined>>;
}

/** What {@link pathMatcher} needs of the dispatcher's options. */
export interface MatcherOptions {
  readonly table: RouteTable;
  readonly respond: (route: Route) => RespondFn;
  readonly routeMiddleware: (route: Route) => readonly Middleware[];
  readonly preflight?: (route: Route) => readonly Middleware[];
}

/** The handlers of each path shape by verb, in the order verbs were first given. */
function handlersByShape(options: MatcherOptions): Map<string, Partial<Record<string, VerbHandler>>> {
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
  return shapes;
}

/**
 * The matcher of a route table's paths: the entry and parameters of a path, as a router holding
 * every shape would answer. Static paths (most of an app's) are answered from a map: registering
 * each in find-my-way costs two compiled functions at start-up. They join the router only if a
 * path needs its own URL handling. For a path that starts with `/` and has no `?` or `#` (every
 * path Koa gives), the router compares static routes with the path itself, or with its `decodeURI`
 * form when it has escapes other than those of reserved characters (with those, its form keeps a
 * `%` and matches no static path of the map): a static route that equals it wins over any
 * parameter. Other paths go to the router after the static paths have joined it.
 */
export function pathMatcher(options: MatcherOptions): (path: string) => PathMatch | undefined {
  const router = FindMyWay({
    caseSensitive: true,
    ignoreTrailingSlash: false,
    ignoreDuplicateSlashes: false,
    maxParamLength: 2048,
  });
  const statics = new Map<string, PathEntry>();
  const allows = new Map<string, string>();
  for (const [shape, handlers] of handlersByShape(options)) {
    const allow = allowOf(Object.keys(handlers) as Verb[], allows);
    if (handlers["GET"] && !handlers["HEAD"]) handlers["HEAD"] = handlers["GET"];
    const store: PathEntry = { handlers, allow, keys: keysOf(shape) };
    if (isPlainStatic(shape)) statics.set(shape, store);
    else router.on("GET", toFindMyWay(shape), noop, store);
  }
  let staticsInRouter = false;

  /** The router's answer: an entry and its parameters; an empty segment never fills a parameter (`/doc/` is not `/doc/:id`). */
  const routerMatch = (path: string): PathMatch | undefined => {
    const found = router.find("GET", path);
    if (!found) return undefined;
    const params = found.params as Record<string, string | undefined>;
    const keys = (found.store as PathEntry).keys;
    for (let i = 0; i < keys.length; i++) if (!params[keys[i]!]) return undefined;
    return { entry: found.store as PathEntry, params };
  };

  return (path) => {
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
}

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

/** The path values of the request a route's middleware chain runs for, read by its last step. */
const pathValues = defineSlot<readonly string[]>("koa-host.values");

function withMiddleware(chain: readonly Middleware[], invoke: RouteInvoker): VerbHandler["run"] {
  if (chain.length === 0) return invoke;
  // Composed once at start-up; the path values ride on the context to the last step.
  const composed = compose([...chain, (ctx: Context) => invoke(ctx, pathValues.get(ctx) ?? NO_KEYS)]);
  return (ctx, values) => {
    pathValues.set(ctx, values);
    return composed(ctx) as Promise<void>;
  };
}
