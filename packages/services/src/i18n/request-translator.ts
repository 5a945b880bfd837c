/**
 * The one way a framework's translations reach the shared batteries: the request's translator
 * put on `ctx.state` under koa-host's TRANSLATE_STATE_KEY, where the built-in error page (its
 * title), the data battery (pagination labels, a refused form's flash, validation messages) read it.
 * fw-a's translations plugin and fw-b's contrib plugin both install it through this middleware.
 */
import type { Context, Middleware } from "koa";
import { TRANSLATE_STATE_KEY } from "@fwkit/koa-host";
import type { Translate } from "./translations.js";

/**
 * A middleware that offers `translatorOf(ctx)` on `ctx.state`; a getter, so a request that shows
 * no translated text never chooses its language (no session read, no negotiation).
 */
export function requestTranslatorMiddleware(translatorOf: (ctx: Context) => Translate): Middleware {
  return async (ctx, next) => {
    Object.defineProperty(ctx.state, TRANSLATE_STATE_KEY, { configurable: true, enumerable: false, get: () => translatorOf(ctx) });
    await next();
  };
}
