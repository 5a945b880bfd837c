import type { Context, Middleware } from "koa";
import compose from "koa-compose";
import type { Route, RouteTable } from "routing-kernel";
import { patternParams } from "routing-kernel/plugin";
import { HTTPError } from "./http-error.js";
import { prepareInvoker, type RouteInvoker } from "./invoke.js";
import type { RespondFn } from "./responder.js";
import { routeSlot } from "./request-state.js";
import { createRouteMatcher, type Resolution, type RouteMatcher } from "./route-lookup.js";
import { defineSlot } from "./slot.js";

// The lookup's types stay importable from the dispatcher's module.
export type { RouteLookup, RouteMatcher } from "./route-lookup.js";

/** The dispatcher middleware. */
export interface Dispatcher {
  readonly middleware: Middleware;
}

/** What the dispatcher adds to the matching of the routes: how each route answers. */
export interface DispatchHandlers {
  /** The framework's responder for a route, decided once per route. */
  readonly respond: (route: Route) => RespondFn;
  /** Middleware run after matching and before the view, decided once per route (plugins). */
  readonly routeMiddleware: (route: Route) => readonly Middleware[];
  /**
   * Middleware run for a route before the automatic OPTIONS answer of a CORS preflight that asks
   * for the route's verb (plugins: the route's own CORS policy), decided once per route.
   */
  readonly preflight?: (route: Route) => readonly Middleware[];
}

/** Options of {@link createDispatcher}. */
export interface DispatchOptions extends DispatchHandlers {
  readonly table: RouteTable;
  /** URL prefix of the whole app when it is mounted inside another (default: none). */
  readonly basePath?: string;
}

/** How one pattern of the route table answers, decided at start-up. */
interface Handler {
  /** Answers the request; a promise only when something on the way was asynchronous. */
  readonly run: (ctx: Context, values: readonly string[]) => void | Promise<void>;
  /** The route's preflight middleware (its CORS policy), run before the automatic OPTIONS answer. */
  readonly preflight: Middleware | undefined;
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
  return createDispatch(createRouteMatcher(options.table, options.basePath), options.table, options).middleware;
}

/**
 * {@link createDispatcher} over a matcher made before (the host's, which `runtime.lookupRoute`
 * already answers with): what is added here is each route's answer. @internal
 */
export function createDispatch(matcher: RouteMatcher, table: RouteTable, handlers: DispatchHandlers): Dispatcher {
  const byEntry = handlersOf(table, handlers);
  // Not async: a synchronous view answers without an extra promise (koa-compose turns a throw here
  // into a rejection, as for an async middleware).
  const middleware: Middleware = (ctx, next) => {
    const resolution = matcher.resolve(ctx);
    if (!resolution) return next();
    return answer(ctx, resolution, byEntry);
  };
  return { middleware };
}

/** The handler of each entry of the route table, by its position; middleware decided once per route. */
function handlersOf(table: RouteTable, options: DispatchHandlers): readonly Handler[] {
  const routeChains = new Map<Route, readonly Middleware[]>();
  const preflights = new Map<Route, Middleware | undefined>();
  return table.entries.map(({ route, pattern }) => {
    let chain = routeChains.get(route);
    if (!chain) {
      const middleware = options.routeMiddleware(route);
      chain = middleware.length === 0 ? NO_MIDDLEWARE : [...middleware];
      routeChains.set(route, chain);
    }
    const invoke = prepareInvoker(route, patternParams(pattern), options.respond(route));
    if (!preflights.has(route)) {
      const before = options.preflight?.(route) ?? NO_MIDDLEWARE;
      preflights.set(route, before.length === 0 ? undefined : compose([...before]));
    }
    return { run: withMiddleware(chain, invoke), preflight: preflights.get(route) };
  });
}

/** Answers a request the matcher resolved: the view, a 308 to the other-slash path, the automatic OPTIONS, or 405. */
function answer(ctx: Context, resolution: Resolution, handlers: readonly Handler[]): void | Promise<void> {
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
      const allow = () => {
        ctx.status = 204;
        ctx.set("Allow", entry.allow);
      };
      // A CORS preflight gets the policy of the route it asks about.
      const asked = ctx.get("Access-Control-Request-Method");
      const target = asked ? entry.targets[asked.toUpperCase()] : undefined;
      const preflight = target ? handlers[target.index]!.preflight : undefined;
      if (!preflight) return allow();
      return preflight(ctx, async () => allow()) as Promise<void>;
    }
    case "not-allowed": {
      const allow = resolution.entry.allow;
      throw HTTPError.MethodNotAllowed(`${resolution.method} is not allowed here; use ${allow}.`, {
        headers: { Allow: allow },
        code: "E_METHOD_NOT_ALLOWED",
      });
    }
    default: {
      const { target, values } = resolution;
      const named: Record<string, string> = {};
      for (let i = 0; i < values.length; i++) named[target.names[i]!] = values[i]!;
      ctx.params = named;
      routeSlot.set(ctx, target.route);
      return handlers[target.index]!.run(ctx, values);
    }
  }
}

const NO_KEYS: readonly string[] = Object.freeze([]);
const NO_MIDDLEWARE: readonly Middleware[] = Object.freeze([]);

/** The path values of the request a route's middleware chain runs for, read by its last step. */
const pathValues = defineSlot<readonly string[]>("koa-host.values");

function withMiddleware(chain: readonly Middleware[], invoke: RouteInvoker): Handler["run"] {
  if (chain.length === 0) return invoke;
  // Composed once at start-up; the path values ride on the context to the last step.
  const composed = compose([...chain, (ctx: Context) => invoke(ctx, pathValues.get(ctx) ?? NO_KEYS)]);
  return (ctx, values) => {
    pathValues.set(ctx, values);
    return composed(ctx) as Promise<void>;
  };
}

declare module "koa" {
  interface DefaultContext {
    /** Path parameters of the matched view route, by name. */
    params: Record<string, string>;
  }
}
