import type { Middleware } from "koa";
import type { SignalRegistry } from "./signal.js";
import { SIGNALS, type RequestFinishedPayload, type RequestStartedPayload } from "./names.js";

function statusOf(error: unknown): number {
  const status =
    (error as { status?: unknown; statusCode?: unknown } | null)?.status ??
    (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status <= 599 ? status : 500;
}

/**
 * Sends `request.started` before the rest of the request and `request.finished` after it (also
 * when it fails, with the error's status). Receivers are awaited but cannot break the request;
 * with no receivers connected nothing is built.
 */
export function requestSignals(signals: SignalRegistry): Middleware {
  const started = signals.get<RequestStartedPayload>(SIGNALS.requestStarted);
  const finished = signals.get<RequestFinishedPayload>(SIGNALS.requestFinished);
  return async (ctx, next) => {
    const startedAt = Date.now();
    if (started.receiverCount > 0) await started.send({ method: ctx.method, path: ctx.path, startedAt });
    let status: number | undefined;
    try {
      await next();
    } catch (error) {
      status = statusOf(error);
      throw error;
    } finally {
      if (finished.receiverCount > 0) {
        await finished.send({
          method: ctx.method,
          path: ctx.path,
          status: status ?? ctx.status,
          durationMs: Date.now() - startedAt,
        });
      }
    }
  };
}
