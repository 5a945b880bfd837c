import type { Context } from "koa";
import type { Route } from "routing-kernel";
import type { RespondFn } from "./responder.js";

/** Runs one route for one request with the path values of its pattern, positionally. */
export type RouteInvoker = (ctx: Context, values: readonly string[]) => Promise<void>;

type ViewInstance = Record<string, (...args: unknown[]) => unknown>;
type ViewConstructor = new (ctx: Context) => ViewInstance;

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";

/**
 * Prepares, at start-up, the call of a route's method for one of its patterns: which path value
 * feeds which argument, whether hooks exist, and how the result is answered. Per request it makes
 * a new view instance, runs `beforeRequest`, the method, `afterRequest`, then the responder.
 */
export function prepareInvoker(route: Route, patternParams: readonly string[], respond: RespondFn): RouteInvoker {
  const View = route.viewClass as unknown as ViewConstructor;
  const name = route.methodName;
  const proto = View.prototype as unknown as Record<string, unknown>;
  const hasBefore = typeof proto["beforeRequest"] === "function";
  const hasAfter = typeof proto["afterRequest"] === "function";
  // For each method parameter, the index of its value among the pattern's values (-1: none).
  const positions = route.parameters.map((p) => patternParams.indexOf(p.name));
  const arity = positions.length;

  return async (ctx, values) => {
    const args: unknown[] = new Array(arity);
    for (let i = 0; i < arity; i++) {
      const at = positions[i]!;
      args[i] = at < 0 ? undefined : values[at];
    }
    const view = new View(ctx);
    let result: unknown;
    if (hasBefore) {
      result = view["beforeRequest"]!(name, ...args);
      if (isThenable(result)) result = await result;
    }
    if (result === undefined) {
      result = view[name]!(...args);
      if (isThenable(result)) result = await result;
    }
    if (hasAfter) {
      result = view["afterRequest"]!(name, result);
      if (isThenable(result)) result = await result;
    }
    const done = respond(ctx, result);
    if (done) await done;
  };
}
