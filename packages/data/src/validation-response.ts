/**
 * Answers a ValidationError the way the client can use it: API clients (JSON/XML routes, JSON
 * bodies, or an Accept header that takes JSON but not HTML) get 422 with per-field messages;
 * HTML form posts are redirected back (303) with the messages and old input as flash data.
 */
import type { Context, Middleware } from "koa";
import { toXml } from "@fwkit/koa-host/plugin";
import { declaredResponseKind } from "routing-kernel/plugin";
import { flash, flashInput, hasSession } from "./flash.js";
import { requestText } from "./request-text.js";
import { defaultValidationMessage, isValidationError, type ValidationError } from "./validate.js";

/** True when the answer should be data (JSON or XML) rather than a redirect to a page. */
export function wantsData(ctx: Context, kind?: string): boolean {
  if (kind === "json" || kind === "xml") return true;
  if (ctx.request.is("json")) return true;
  return ctx.accepts("html", "json") === "json";
}

/**
 * The JSON body of a 422: `{"error":{"status":422,"message":"...","fields":{...}}}`. `message`
 * replaces the error's own summary (the request's language, see {@link validationSummary}).
 */
export function validationErrorBody(
  error: ValidationError,
  message: string = error.message,
): { error: { status: 422; message: string; fields: Record<string, string[]> } } {
  return { error: { status: 422, message, fields: error.fields } };
}

/**
 * The summary line of a refused input in the request's language: the default summary becomes the
 * translated `form.failed` (or `form.invalid` without fields) when a translations plugin is on; a
 * summary the thrower wrote itself (contrib's translated "correct the fields marked below") is kept
 * as written, and so is the English default without a translator.
 */
export function validationSummary(ctx: { state?: unknown }, error: ValidationError): string {
  if (error.message !== defaultValidationMessage(error.fields)) return error.message;
  const names = Object.keys(error.fields);
  const translated = names.length > 0 ? requestText(ctx, "form.failed", { fields: names.join(", ") }) : requestText(ctx, "form.invalid");
  return translated ?? error.message;
}

/** The same 422 body as XML, written by the kit's XML writer (root `<response>`, arrays as `<item>`). */
export function validationErrorXml(error: ValidationError, message: string = error.message): string {
  return toXml({ error: { status: 422, message, fields: error.fields } });
}

/** Where to send the browser back to: the Referer when it is this site, else this URL. */
export function backUrl(ctx: Context): string {
  const referer = ctx.get("Referer");
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.host === ctx.host && (url.protocol === "http:" || url.protocol === "https:")) return `${url.pathname}${url.search}`;
    } catch {
      // An unparsable Referer is ignored.
    }
  }
  return ctx.originalUrl || ctx.path || "/";
}

/**
 * Answers `error` on `ctx`. Returns false (and does nothing) when it is an HTML request without a
 * session: the error is then left to the host's 422 page.
 */
export function respondToValidationError(ctx: Context, error: ValidationError, kind?: string): boolean {
  if (wantsData(ctx, kind)) {
    ctx.status = 422;
    const summary = validationSummary(ctx, error);
    if (kind === "xml") {
      ctx.type = "application/xml; charset=utf-8";
      ctx.body = validationErrorXml(error, summary);
    } else {
      ctx.body = validationErrorBody(error, summary);
    }
    return true;
  }
  if (!hasSession(ctx)) return false;
  flash(ctx, "error", validationSummary(ctx, error));
  flashInput(ctx, error.fields, error.old);
  ctx.status = 303;
  ctx.redirect(backUrl(ctx));
  ctx.status = 303;
  return true;
}

/**
 * Answers `error` when it is a ValidationError that can be answered here ({@link
 * respondToValidationError}); false for anything else. The response kind is `kind` when known
 * (per-route middleware), otherwise read from `ctx.state.route` if the host set it.
 */
export function answerValidationError(ctx: Context, error: unknown, kind?: string): boolean {
  if (!isValidationError(error)) return false;
  const routeKind = kind ?? declaredResponseKind(ctx.state["route"] as { tags?: Record<string, unknown> } | undefined);
  return respondToValidationError(ctx, error, routeKind);
}

/** Middleware catching ValidationError from everything below it ({@link answerValidationError}). */
export function validationErrorMiddleware(kind?: string): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!answerValidationError(ctx, error, kind)) throw error;
    }
  };
}
