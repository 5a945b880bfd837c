import type { Context } from "koa";
import { loggedPath } from "./log-path.js";
import type { Logger } from "pino";
import { FrameworkError, type Route } from "routing-kernel";
import { safeHeaders } from "./header-values.js";
import { sendHtmlError, sendJsonError, wantsJsonError } from "./error-pages.js";
import { HTTPError, toHttpStatus } from "./http-error.js";
import { isOutageReported } from "@fwkit/battery-kit";
import type { Responder } from "./responder.js";
import { requestIdSlot, routeSlot } from "./request-state.js";

/** What answering an error needs, decided at start-up. */
export interface ErrorAnswerOptions {
  readonly logger: Logger;
  readonly responder: Responder;
  /** Show a failure's message and stack (development only). */
  readonly development: boolean;
  /**
   * The route of a path, for an error raised before the route was matched (body, CSRF, session
   * store, 405, 404): it is answered in that route's kind (JSON for JSON views), as a view's own
   * errors are.
   */
  readonly routeAt?: ((path: string) => Route | undefined) | undefined;
}

/** The 404 of a request nothing answered. */
export function notServed(ctx: Context): Error {
  return HTTPError.NotFound(`Nothing is served at ${ctx.path}.`, { code: "E_PATH_NOT_SERVED" });
}

const REPRESENTATION_HEADERS = [
  "content-type",
  "content-length",
  "content-disposition",
  "content-encoding",
  "location",
  "etag",
  "last-modified",
  "cache-control",
  "expires",
];

/**
 * Turns anything thrown while answering into the response: an HTTP error's status and message; any
 * other exception a 500 logged with its stack (shown to the client only in development).
 * @internal the request front calls it; not exported from the package.
 */
export async function respondWithError(ctx: Context, error: unknown, options: ErrorAnswerOptions): Promise<void> {
  const { status, message, exposed } = toHttpStatus(error);
  const route = routeSlot.get(ctx) ?? options.routeAt?.(ctx.path);
  // Unexpected failures are errors; a 5xx a view chose to answer (503 during maintenance) is a
  // warning; an outage a battery's outage log already tells about (a store that is down) is not
  // logged again for every request.
  const reported = isOutageReported(error);
  // A coded 503 (an outside part is unavailable: the database restarting) is no bug of the app: a
  // warning naming its cause, which the client never sees.
  const unavailable = status === 503 && error instanceof FrameworkError;
  if (status >= 500 && !exposed && !reported && !unavailable)
    options.logger.error(
      { reqId: requestIdSlot.get(ctx), err: error, method: ctx.method, path: loggedPath(ctx) },
      `${status} on ${ctx.method} ${loggedPath(ctx)}`,
    );
  else if (unavailable && !reported)
    options.logger.warn(
      { reqId: requestIdSlot.get(ctx), method: ctx.method, path: loggedPath(ctx), status, code: error.code },
      `${status} on ${ctx.method} ${loggedPath(ctx)}: ${error.code}: ${error.message}`,
    );
  else if (status >= 500 && !reported)
    options.logger.warn(
      { reqId: requestIdSlot.get(ctx), method: ctx.method, path: loggedPath(ctx), status },
      `${status} on ${ctx.method} ${loggedPath(ctx)}: ${message}`,
    );
  const headers = (error as { headers?: Record<string, string> } | undefined)?.headers;
  // Headers describing the view's own answer do not belong to the error response; security
  // headers, cookies and Vary set by middleware stay.
  for (const name of REPRESENTATION_HEADERS) ctx.remove(name);
  if (headers && typeof headers === "object") {
    try {
      ctx.set(safeHeaders(headers));
    } catch {
      // A header with a line break cannot be sent; the error itself still is.
    }
  }
  const stack = options.development && !exposed && error instanceof Error ? error.stack : undefined;
  const info = {
    status,
    message: options.development && !exposed && error instanceof Error ? error.message || message : message,
    error,
    route,
    ...(stack ? { stack } : {}),
  };
  ctx.status = status;
  try {
    await options.responder.renderError(ctx, info);
  } catch (renderError) {
    options.logger.error(
      { reqId: requestIdSlot.get(ctx), err: renderError },
      "the error page itself failed; answering with the built-in page",
    );
    if (wantsJsonError(ctx, route)) sendJsonError(ctx, info);
    else sendHtmlError(ctx, info);
  }
  ctx.status = status;
}
