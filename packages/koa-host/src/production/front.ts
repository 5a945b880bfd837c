import type { Middleware } from "koa";
import type { HostPlugin } from "../plugin.js";
import { healthMiddleware } from "./health.js";
import { isDraining } from "./lifecycle.js";
import { requestIdMiddleware } from "./request-id.js";
import type { ProductionSettings } from "./settings.js";

/**
 * The first layer of every app: the request id, `Connection: close` once the process drains, and
 * the health endpoints, in one middleware so production costs one layer per request.
 */
export function productionFront(settings: ProductionSettings, plugins: readonly HostPlugin[]): Middleware {
  const health = healthMiddleware(settings, plugins);
  const inner: Middleware = (ctx, next) => {
    if (isDraining()) ctx.set("Connection", "close");
    return health ? health(ctx, next) : next();
  };
  return requestIdMiddleware(settings.requestIdHeader, inner);
}
