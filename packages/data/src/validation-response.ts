/**
 * Answers a ValidationError the way the client can use it: API clients (JSON/XML routes, JSON
 * bodies, or an Accept header that takes JSON but not HTML) get 422 with per-field messages;
 * HTML form posts are redirected back (303) with the messages and old input as flash data.
 */
import type { Context, Middleware } from "koa";
import { toXml } from "@fwkit/koa-host/plugin";
import { declaredResponseKind } from "routing-kernel/plugin";
import { flash, flashInput, hasSession } from "./flash.js";
import { boundMessage } from "./refused-input.js";
import { requestText } from "./request-text.js";
import { defaultValidationMessage, isValidationError, type ValidationError } from "./validate.js";
import { inputRefusedSlot, routeSlot } from "@fwkit/koa-host/plugin";

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
  const translated =
    names.length > 0 ? requestText(ctx, "form.failed", { fields: names.join(", ") }) : requestText(ctx, "form.invalid");
  return translated ?? error.message;
}

/** The same 422 body as XML, written by the kit's XML writer (root `<response>`, arrays as `<item>`). */
export function validationErrorXml(error: ValidationError, message: string = error.message): string {
  return toXml({ error: { status: 422, message, fields: error.fields } });
}

/**
 * The form field naming the page a form is on, so a refused form goes back there without relying
 * on the Referer (which the default `Referrer-Policy: no-referrer` keeps the browser from sending).
 * Templates write it with the `back_path` local next to the CSRF token.
 */
export const BACK_FIELD = "_back";

/** The longest back path taken from a form (a page URL, not data). */
const BACK_MAX = 2000;

/**
 * `value` as a path on this site (`/notes?page=2`), or undefined when it is anything else: another
 * origin, a scheme-relative `//host` or `/\host` (which browsers follow off-site), control
 * characters, or not a string. The form field is client input, so it is never an open redirect.
 */
export function localBackPath(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > BACK_MAX) return undefined;
  if (value.charCodeAt(0) !== 47 || value.includes("\\") || /[\u0000-\u001f\u007f]/.test(value)) return undefined;
  const base = "http://local.invalid";
  try {
    const url = new URL(value, base);
    // Checked after normalising: "/.//host" and "/..//host" become "//host", which leaves the site.
    if (url.origin !== base || url.pathname.startsWith("//")) return undefined;
    return `${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}

/** The path a form on the page being rendered goes back to when it is refused: the page's own URL. */
export function backPath(ctx: Context): string {
  return localBackPath(ctx.originalUrl) ?? "/";
}

/**
 * Where to send the browser back to: the form's {@link BACK_FIELD} when it is a path on this site,
 * else the Referer when it is this site, else this URL.
 */
export function backUrl(ctx: Context): string {
  const body = (ctx.request as { body?: unknown }).body;
  const field =
    body && typeof body === "object" ? localBackPath((body as Record<string, unknown>)[BACK_FIELD]) : undefined;
  if (field) return field;
  const referer = ctx.get("Referer");
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.host === ctx.host && (url.protocol === "http:" || url.protocol === "https:"))
        return `${url.pathname}${url.search}`;
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
  // Read by the security battery's rate limits: a limit with `countInvalid: false` gives this
  // request's count back (the error is answered here, below the limit, so it never sees it thrown).
  inputRefusedSlot.set(ctx, true);
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
  // The summary names the failing fields, which a post can make as many as it likes.
  flash(ctx, "error", boundMessage(validationSummary(ctx, error)));
  flashInput(ctx, error.fields, error.old);
  ctx.status = 303;
  ctx.redirect(backUrl(ctx));
  ctx.status = 303;
  return true;
}

/**
 * Answers `error` when it is a ValidationError that can be answered here ({@link
 * respondToValidationError}); false for anything else. The response kind is `kind` when known
 * (per-route middleware), otherwise read from the host's `routeSlot` if the dispatcher set it.
 */
export function answerValidationError(ctx: Context, error: unknown, kind?: string): boolean {
  if (!isValidationError(error)) return false;
  const routeKind = kind ?? declaredResponseKind(routeSlot.get(ctx));
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
