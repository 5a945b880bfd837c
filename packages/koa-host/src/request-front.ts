import type { Middleware } from "koa";
import type { Logger } from "pino";
import { notServed, respondWithError, type ErrorAnswerOptions } from "./error-handler.js";
import { requestLogFieldsOf } from "./logger.js";
import { checkedHeaderName } from "./header-table.js";
import { requestLine } from "./request-line.js";
import type { HostPlugin, RequestTimer } from "./plugin.js";
import { healthProbe } from "./production/health.js";
import { isDraining } from "./production/lifecycle.js";
import { assignRequestId } from "./production/request-id.js";
import type { ProductionSettings } from "./production/settings.js";
import { peerTrust } from "./production/trust-proxy.js";
import { stateInstaller } from "./state-getters.js";

/** Options of {@link requestFront}, decided at start-up. */
export interface RequestFrontOptions {
  readonly production: ProductionSettings;
  /** The plugins readiness asks, and whose fields the request log line carries. */
  readonly plugins: readonly HostPlugin[];
  /** The folder the app was loaded from: readiness fails once it is gone. */
  readonly appRoot?: string;
  /** The logger of the request log line; `undefined` when requests are not logged. */
  readonly requestLog: Logger | undefined;
  readonly errors: ErrorAnswerOptions;
  /** The step inside error handling, before the plugins: static files or the body parser. */
  readonly inner: Middleware;
}

/**
 * The first layer of every app, as one middleware: the request id, `Connection: close` once the
 * process drains, the health endpoints (answered before the log line, sessions and CSRF), the
 * plugins' getters on `ctx.state` (before anything that may answer with an error page), the
 * request log line and the plugins' request timers (the metrics), the error handler (everything
 * thrown below becomes the response; a request nothing answered becomes a 404 the same way) and,
 * inside it, static files or the body parser.
 * One layer and one async frame where these were five middleware (each layer, and each
 * `async` wrapper handing on `next()`'s promise, costs a cookie-less GET its share).
 * @internal the host wires it; not exported from the package.
 */
export function requestFront(options: RequestFrontOptions): Middleware {
  const header = checkedHeaderName(options.production.requestIdHeader);
  const probe = healthProbe(options.production, options.plugins, options.errors.logger, options.appRoot);
  const fromTrustedProxy = peerTrust(options.production.trustProxy);
  const { requestLog, errors, inner } = options;
  const logLine = requestLog ? requestLine(requestLog, requestLogFieldsOf(options.plugins)) : undefined;
  const timers = options.plugins.map((plugin) => plugin.requestTimer?.()).filter((t) => t !== undefined);
  const timer = timers.length === 0 ? undefined : timers.length === 1 ? timers[0] : allOf(timers);
  const installState = stateInstaller(options.plugins);
  return async (ctx, next) => {
    assignRequestId(ctx, header, fromTrustedProxy(ctx));
    if (isDraining()) ctx.set("Connection", "close");
    const probing = probe?.(ctx);
    if (probing) return probing;
    installState?.(ctx);
    const start = logLine || timer ? performance.now() : 0;
    timer?.start?.(ctx);
    try {
      await inner(ctx, next);
      if (ctx.status === 404 && ctx.body === undefined) throw notServed(ctx);
    } catch (error) {
      await respondWithError(ctx, error, errors);
    } finally {
      logLine?.(ctx, start);
      timer?.end(ctx, start);
    }
  };
}

/** The plugins' request timers as one, in plugin order. */
function allOf(timers: readonly RequestTimer[]): RequestTimer {
  return {
    start(ctx) {
      for (const timer of timers) timer.start?.(ctx);
    },
    end(ctx, start) {
      for (const timer of timers) timer.end(ctx, start);
    },
  };
}
