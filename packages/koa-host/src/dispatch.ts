import type { Context, Middleware } from "koa";
import type { Route, RouteTable } from "routing-kernel";
import { toggleTrailingSlash } from "routing-kernel/plugin";
import { pathMatcher, type PathEntry, type PathMatch, type VerbHandler } from "./dispatch-match.js";
import { E_BAD_URL } from "./errors.js";
import { HTTPError } from "./http-error.js";
import { overriddenMethod } from "./override.js";
import type { RespondFn } from "./responder.js";
import { defineSlot } from "./slot.js";
import { routeSlot } from "./request-state.js";

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
  const resolve = resolver(pathMatcher(options), options.basePath ?? "");

  // Not async: a synchronous view answers without an extra promise (koa-compose turns a throw here
  // into a rejection, as for an async middleware).
  const middleware: Middleware = (ctx, next) => {
    const held = heldResolution.get(ctx);
    const resolution = held && held.path === ctx.path && held.method === ctx.method ? held.resolution : resolve(ctx);
    if (!resolution) return next();
    return answer(ctx, resolution);
  };

  return {
    middleware,
    lookup(ctx) {
      let held = heldResolution.get(ctx);
      if (!held || held.path !== ctx.path || held.method !== ctx.method) {
        held = { path: ctx.path, method: ctx.method, resolution: resolve(ctx) };
        heldResolution.set(ctx, held);
      }
      return lookupOf(ctx, held.resolution);
    },
  };
}

/** What this request gets: a view, a redirect, an automatic answer, or undefined (not a view path). */
function resolver(
  match: (path: string) => PathMatch | undefined,
  basePath: string,
): (ctx: Context) => Resolution | undefined {
  return (ctx) => {
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
}

/** Answers a request the dispatcher resolved: the view, a 308 to the other-slash path, the automatic OPTIONS, or 405. */
function answer(ctx: Context, resolution: Resolution): void | Promise<void> {
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
      const preflight = asked ? entry.handlers[asked.toUpperCase()]?.preflight : undefined;
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
      const { handler, values } = resolution;
      const named: Record<string, string> = {};
      for (let i = 0; i < values.length; i++) named[handler.names[i]!] = values[i]!;
      ctx.params = named;
      routeSlot.set(ctx, handler.route);
      return handler.run(ctx, values);
    }
  }
}

/** The {@link RouteLookup} of a resolution, for middleware that runs before the dispatcher. */
function lookupOf(ctx: Context, resolution: Resolution | undefined): RouteLookup | undefined {
  if (!resolution) return undefined;
  if (resolution.kind === "view") return { route: resolution.handler.route, answersItself: false };
  if (resolution.kind === "options") {
    const asked = ctx.get("Access-Control-Request-Method");
    const route = asked ? resolution.entry.handlers[asked.toUpperCase()]?.route : undefined;
    return route
      ? { route: undefined, answersItself: true, preflightFor: route }
      : { route: undefined, answersItself: true };
  }
  return { route: undefined, answersItself: true };
}

/** A resolution kept on the context by `lookup`, valid while path and method are unchanged. */
interface HeldResolution {
  readonly path: string;
  readonly method: string;
  readonly resolution: Resolution | undefined;
}

const heldResolution = defineSlot<HeldResolution>("koa-host.resolved");

declare module "koa" {
  interface DefaultContext {
    /** Path parameters of the matched view route, by name. */
    params: Record<string, string>;
  }
}
