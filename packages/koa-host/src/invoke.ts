import type { Context } from "koa";
import type { Route } from "routing-kernel";
import type { RespondFn } from "./responder.js";

/**
 * Runs one route for one request with the path values of its pattern, positionally. It returns a
 * promise only when the hooks, the method or the responder were asynchronous: a synchronous view
 * costs no promise and no microtask turn.
 */
export type RouteInvoker = (ctx: Context, values: readonly string[]) => void | Promise<void>;

type ViewInstance = Record<string, (...args: unknown[]) => unknown>;
type ViewConstructor = new (ctx: Context) => ViewInstance;

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";

/**
 * Prepares, at start-up, the call of a route's method for one of its patterns: which path value
 * feeds which argument, whether hooks exist, and how the result is answered. Per request it makes
 * a new view instance, runs `beforeRequest`, the method, `afterRequest`, then the responder; it
 * stays synchronous until one of them returns a promise, then continues asynchronously.
 * @internal the host wires it; not exported from the package.
 */
export function prepareInvoker(route: Route, patternParams: readonly string[], respond: RespondFn): RouteInvoker {
  const View = route.viewClass as unknown as ViewConstructor;
  const name = route.methodName;
  // The class's methods, where the hooks are looked up once.
  const proto: Partial<ViewInstance> = View.prototype;
  const hasBefore = typeof proto["beforeRequest"] === "function";
  const hasAfter = typeof proto["afterRequest"] === "function";
  // For each method parameter, the index of its value among the pattern's values (-1: none).
  const positions = route.parameters.map((p) => patternParams.indexOf(p.name));
  const arity = positions.length;

  // The steps after `beforeRequest`, from a known result on; `from` says where to resume.
  const method = (view: ViewInstance, args: unknown[]): unknown => view[name]!(...args);
  const after = (view: ViewInstance, result: unknown): unknown =>
    hasAfter ? view["afterRequest"]!(name, result) : result;

  async function finishAsync(
    ctx: Context,
    view: ViewInstance,
    args: unknown[],
    pending: unknown,
    from: "before" | "method" | "after",
  ): Promise<void> {
    let result = await pending;
    if (from === "before" && result === undefined) result = await method(view, args);
    if (from !== "after") result = await after(view, result);
    await respond(ctx, result);
  }

  return (ctx, values) => {
    const args: unknown[] = new Array(arity);
    for (let i = 0; i < arity; i++) {
      const at = positions[i]!;
      args[i] = at < 0 ? undefined : values[at];
    }
    const view = new View(ctx);
    let result: unknown;
    if (hasBefore) {
      result = view["beforeRequest"]!(name, ...args);
      if (isThenable(result)) return finishAsync(ctx, view, args, result, "before");
    }
    if (result === undefined) {
      result = method(view, args);
      if (isThenable(result)) return finishAsync(ctx, view, args, result, "method");
    }
    if (hasAfter) {
      result = after(view, result);
      if (isThenable(result)) return finishAsync(ctx, view, args, result, "after");
    }
    return respond(ctx, result) ?? undefined;
  };
}
