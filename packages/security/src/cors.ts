/**
 * CORS on @koa/cors: app-wide (config key `cors`) and per view (`@cors(settings)`). Origins are an
 * exact list or `"*"`; a request from an origin not on the list gets no CORS headers at all.
 */
import type koaCors from "@koa/cors";
import type { Context, Middleware } from "koa";
import { setTag, type ViewDecorator, type ViewDecoratorContext } from "routing-kernel";
import { isDecoratorCall } from "routing-kernel/plugin";
import { validateCors, type CorsSettings } from "./config.js";
import { requireDriver } from "./drivers.js";

/** Route tag set by {@link cors}. */
export const CORS_TAG = "security.cors";

/**
 * Koa middleware answering CORS (and preflight) requests with `settings`. @koa/cors is loaded here,
 * at start-up of an app that uses CORS, not with the package.
 */
export function corsMiddleware(settings: CorsSettings): Middleware {
  const cors = requireDriver<typeof koaCors>("@koa/cors", "CORS support");
  const origins = settings.origins ?? "*";
  const allowed = origins === "*" ? undefined : new Set(origins);
  return cors({
    origin: (ctx: Context) => {
      if (!allowed) return "*";
      const origin = ctx.get("Origin");
      return allowed.has(origin) ? origin : "";
    },
    credentials: settings.credentials ?? false,
    ...(settings.allowMethods ? { allowMethods: [...settings.allowMethods] } : {}),
    ...(settings.allowHeaders ? { allowHeaders: [...settings.allowHeaders] } : {}),
    ...(settings.exposeHeaders ? { exposeHeaders: [...settings.exposeHeaders] } : {}),
    ...(settings.maxAge !== undefined ? { maxAge: settings.maxAge } : {}),
  }) as Middleware;
}

/**
 * Per-view CORS on a class or method: `@cors` (any origin, no credentials),
 * `@cors({ origin: "https://app.example.com" })` or
 * `@cors({ origins: ["https://app.example.com"], credentials: true })`. Settings are checked when
 * the decorator is applied: an unknown key is an error naming the known ones. The route's policy
 * also answers its CORS preflights (the host's automatic OPTIONS answer runs it).
 */
export function cors(value: unknown, context: ViewDecoratorContext): void;
export function cors(settings?: CorsSettings): ViewDecorator;
export function cors(...args: unknown[]): ViewDecorator | void {
  if (isDecoratorCall(args)) {
    setTag("cors", CORS_TAG, validateCors({}, "@cors"))(args[0], args[1]);
    return;
  }
  const settings = validateCors((args[0] as CorsSettings | undefined) ?? {}, "@cors(options)");
  return setTag("cors", CORS_TAG, settings);
}
