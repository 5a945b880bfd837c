/**
 * `loginRequired`: a view class or method that only logged-in users may call. HTML clients are
 * redirected to the login page with `next=<the original URL>`; JSON and XML views, and clients
 * that do not accept HTML, get 401 instead.
 */
import type { Context, Middleware } from "koa";
import { bareOrCalled, setTag, type Route, type ViewDecorator } from "routing-kernel";
import { isDataRoute } from "routing-kernel/plugin";
import { E_LOGIN_REQUIRED, withHeaders } from "./errors.js";
import { runtimeOf } from "./runtime.js";
import { currentUserSlot } from "./request-state.js";

/** Route tag set by {@link loginRequired}. */
export const LOGIN_REQUIRED_TAG = "security.loginRequired";

/** Restricts a view class or method to logged-in users; bare (`@loginRequired`) or called. */
export const loginRequired = bareOrCalled<ViewDecorator>(
  () => setTag("loginRequired", LOGIN_REQUIRED_TAG, true),
  "loginRequired",
);

/** True for JSON and XML routes: routing-kernel's, re-exported here for the batteries' users. */
export { isDataRoute } from "routing-kernel/plugin";

/** True when the client sent an Accept header that excludes HTML (an API client). */
export function rejectsHtml(ctx: Context): boolean {
  return Boolean(ctx.get("Accept")) && ctx.accepts("html") === false;
}

const LOCAL_BASE = "http://local.invalid";

/**
 * A same-site path to go to after login, from an untrusted `next` value; anything else (another
 * host, `//host`, a backslash trick, a scheme, dot segments that resolve to `//host`) gives
 * `fallback`. The path is normalised first and checked after, so what is checked is what the
 * browser follows.
 */
export function safeNextUrl(next: unknown, fallback = "/"): string {
  if (typeof next !== "string" || next.length > 2048) return fallback;
  if (!next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return fallback;
  // Control characters can hide a scheme or a host from naive checks.
  for (let i = 0; i < next.length; i++) if (next.charCodeAt(i) < 0x20 || next.charCodeAt(i) === 0x7f) return fallback;
  let url: URL;
  try {
    url = new URL(next, LOCAL_BASE);
  } catch {
    return fallback;
  }
  // "/.//host" and "/..//host" normalise to "//host", which a browser follows off-site.
  if (url.origin !== LOCAL_BASE || url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login URL with `next` set to the URL that was asked for. */
export function loginRedirectUrl(loginUrl: string, originalUrl: string): string {
  return `${loginUrl}${loginUrl.includes("?") ? "&" : "?"}next=${encodeURIComponent(originalUrl)}`;
}

/** Route middleware for a `loginRequired` route (decided at start-up from the route's tags). */
export function loginRequiredMiddleware(route: Route): Middleware {
  const data = isDataRoute(route);
  return async (ctx, next) => {
    const user = currentUserSlot.get(ctx);
    if (user !== undefined && user !== null) {
      await next();
      return;
    }
    const { loginUrl, sessionCookie } = runtimeOf(ctx, "@loginRequired").config;
    if (data || rejectsHtml(ctx)) {
      throw withHeaders(new E_LOGIN_REQUIRED(loginUrl), {
        "WWW-Authenticate": `Cookie realm="app", form-action="${loginUrl}", cookie-name="${sessionCookie}"`,
      });
    }
    ctx.redirect(loginRedirectUrl(loginUrl, ctx.originalUrl));
  };
}
