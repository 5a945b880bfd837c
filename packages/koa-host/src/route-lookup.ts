/**
 * Which view route a request goes to, worked out from the route table alone: made at start-up
 * before the plugins are set up, so `runtime.lookupRoute` answers from the first request on and the
 * dispatcher, built later from the plugins' route phases, reads the same answer.
 */
import type { Context } from "koa";
import type { Route, RouteTable } from "routing-kernel";
import { toggleTrailingSlash } from "routing-kernel/plugin";
import { pathMatcher, type PathEntry, type VerbTarget } from "./dispatch-match.js";
import { E_BAD_URL } from "./errors.js";
import { overriddenMethod } from "./override.js";
import { defineSlot } from "./slot.js";

/** What the dispatcher does with a request, worked out once and shared with {@link RouteMatcher.lookup}. */
export type Resolution =
  | { readonly kind: "view"; readonly target: VerbTarget; readonly values: readonly string[] }
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

/** The route matching of one app, shared by `runtime.lookupRoute` and the dispatcher. */
export interface RouteMatcher {
  /**
   * What the dispatcher will do with this request; `undefined` when no view path matches (the
   * request goes on to hand-written routes). The answer is kept on the context, so the dispatcher
   * does not match the same request twice.
   */
  lookup(ctx: Context): RouteLookup | undefined;
  /** The request's resolution: the one `lookup` kept while path and method are unchanged, else worked out now. */
  resolve(ctx: Context): Resolution | undefined;
}

/**
 * The matcher of a route table's view routes under `basePath` (the app's prefix when mounted).
 * @internal the host makes it; not exported from the package.
 */
export function createRouteMatcher(table: RouteTable, basePath = ""): RouteMatcher {
  const resolve = resolver(pathMatcher(table), basePath);
  return {
    lookup(ctx) {
      let held = heldResolution.get(ctx);
      if (!held || held.path !== ctx.path || held.method !== ctx.method) {
        held = { path: ctx.path, method: ctx.method, resolution: resolve(ctx) };
        heldResolution.set(ctx, held);
      }
      return lookupOf(ctx, held.resolution);
    },
    resolve(ctx) {
      const held = heldResolution.get(ctx);
      return held && held.path === ctx.path && held.method === ctx.method ? held.resolution : resolve(ctx);
    },
  };
}

/** What this request gets: a view, a redirect, an automatic answer, or undefined (not a view path). */
function resolver(match: ReturnType<typeof pathMatcher>, basePath: string): (ctx: Context) => Resolution | undefined {
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
    const target = entry.targets[method];
    if (!target) return method === "OPTIONS" ? { kind: "options", entry } : { kind: "not-allowed", entry, method };
    const values: string[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) values[i] = params[keys[i]!] ?? "";
    return { kind: "view", target, values };
  };
}

/** The answer for a request the dispatcher answers by itself (308, 405, automatic OPTIONS). */
const ANSWERS_ITSELF: RouteLookup = Object.freeze({ route: undefined, answersItself: true });

/** The {@link RouteLookup} of a resolution, for middleware that runs before the dispatcher. */
function lookupOf(ctx: Context, resolution: Resolution | undefined): RouteLookup | undefined {
  if (!resolution) return undefined;
  if (resolution.kind === "view") return resolution.target.lookup;
  if (resolution.kind === "options") {
    const asked = ctx.get("Access-Control-Request-Method");
    const route = asked ? resolution.entry.targets[asked.toUpperCase()]?.route : undefined;
    return route ? { route: undefined, answersItself: true, preflightFor: route } : ANSWERS_ITSELF;
  }
  return ANSWERS_ITSELF;
}

/** A resolution kept on the context by `lookup`, valid while path and method are unchanged. */
interface HeldResolution {
  readonly path: string;
  readonly method: string;
  readonly resolution: Resolution | undefined;
}

const heldResolution = defineSlot<HeldResolution>("koa-host.resolved");
