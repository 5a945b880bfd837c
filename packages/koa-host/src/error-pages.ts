import type { Context } from "koa";
import type { Route } from "routing-kernel";
import { isDataRoute } from "routing-kernel/plugin";
import type { ErrorInfo } from "./responder.js";
import { escapeHtml } from "./escape/html.js";
import { statusText } from "./http-error.js";
import { localeSlot, translatorSlot, type RequestTranslate } from "./request-state.js";

/** True when the client accepts JSON but neither HTML nor anything (`*\/*`). */
export function acceptsOnlyJson(ctx: Context): boolean {
  const accept = ctx.get("accept");
  return accept.includes("json") && !accept.includes("html") && !accept.includes("*/*");
}

/** True when an error for this request should be a JSON body: JSON/XML views and JSON-only clients. */
export function wantsJsonError(ctx: Context, route: Route | undefined): boolean {
  return isDataRoute(route) || acceptsOnlyJson(ctx);
}

/**
 * Writes `{"error": {"status": N, "message": "..."}}` (and the stack in development). The message
 * is the one the HTML page would show ({@link errorPageText}): the framework's own errors in the
 * request's language when a translator is on, so JSON and HTML clients read the same words.
 */
export function sendJsonError(ctx: Context, info: ErrorInfo): void {
  const text = errorPageText(ctx, info);
  ctx.status = info.status;
  ctx.type = "application/json; charset=utf-8";
  if (text.lang !== "en") ctx.set("Content-Language", text.lang);
  const error: Record<string, unknown> = { status: info.status, message: text.message };
  const fields = (info.error as { fields?: unknown } | undefined)?.fields;
  if (fields && typeof fields === "object") error["fields"] = fields;
  if (info.stack) error["stack"] = info.stack;
  ctx.body = JSON.stringify({ error });
}

/** The words of a built-in error page: its language, title and message. */
export interface ErrorPageText {
  readonly lang: string;
  /** The status and its name: `404 Not Found`, `404 Seite nicht gefunden`. */
  readonly title: string;
  /** The status's name alone, in the same language. */
  readonly name: string;
  readonly message: string;
}

/**
 * The built-in page's words for this request: translated when a translations plugin put a translator on the request (`translatorSlot`), titled
 * `errors.status.<code>` in its language (`localeSlot`).
 * A framework's own message (an error with a stable code: `E_PATH_NOT_SERVED`, `E_CSRF_TOKEN_MISSING`...)
 * is `errors.message.<code>` when the catalog has it, filled with the request's path and method and the
 * error's `Allow` header; an app's own message is left as it was written.
 */
export function errorPageText(ctx: Context, info: ErrorInfo): ErrorPageText {
  const english = statusText(info.status);
  const translate = translatorSlot.get(ctx);
  const key = `errors.status.${info.status}`;
  const words = typeof translate === "function" ? translate(key) : key;
  if (words === key) return { lang: "en", title: `${info.status} ${english}`, name: english, message: info.message };
  const lang = localeSlot.get(ctx) ?? "en";
  // A message that only repeats the status's English name is replaced by the translated name.
  const message = info.message === english ? words : (codeMessage(translate!, ctx, info) ?? info.message);
  return { lang, title: `${info.status} ${words}`, name: words, message };
}

/** The catalog's `errors.message.<code>` for the error, or undefined when it has none. */
function codeMessage(translate: RequestTranslate, ctx: Context, info: ErrorInfo): string | undefined {
  const error = info.error as { code?: unknown; headers?: Readonly<Record<string, string>> } | undefined;
  if (typeof error?.code !== "string") return undefined;
  const key = `errors.message.${error.code}`;
  const text = translate(key, { path: ctx.path, method: ctx.method, allow: error.headers?.["Allow"] ?? "" });
  return text === key ? undefined : text;
}

/** The built-in HTML error page, used when the app has none. */
export function builtInErrorPage(info: ErrorInfo, text?: ErrorPageText): string {
  const title = text?.title ?? `${info.status} ${statusText(info.status)}`;
  const message = text?.message ?? info.message;
  const stack = info.stack ? `<pre class="stack">${escapeHtml(info.stack)}</pre>` : "";
  return `<!doctype html>
<html lang="${escapeHtml(text?.lang ?? "en")}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:10vh auto;padding:0 1rem;color:#222}
h1{font-size:1.6rem}pre{background:#f4f4f4;padding:1rem;overflow:auto;font-size:.8rem}
@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}pre{background:#222}}</style></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${stack}</body></html>`;
}

/** Writes the built-in HTML error page. */
export function sendHtmlError(ctx: Context, info: ErrorInfo): void {
  ctx.status = info.status;
  ctx.type = "text/html; charset=utf-8";
  ctx.body = builtInErrorPage(info, errorPageText(ctx, info));
}
