/**
 * The one way a framework's translations reach the shared batteries: the request's translator
 * put on `ctx.state` under koa-host's TRANSLATE_STATE_KEY, where the built-in error page (its
 * title), the data battery (pagination labels, a refused form's flash, validation messages) read it.
 * fw-a's translations plugin and fw-b's contrib plugin both install it through this middleware.
 */
import type { Context, Middleware } from "koa";
import { TRANSLATE_STATE_KEY } from "@fwkit/koa-host/plugin";
import type { Translate } from "./translations.js";

// The request a state object belongs to, for the shared getter below (not enumerable: spreads and
// JSON of ctx.state do not see it).
const CONTEXT = Symbol("fw-services.request-translator.ctx");

/**
 * A middleware that offers `translatorOf(ctx)` on `ctx.state`; a getter, so a request that shows
 * no translated text never chooses its language (no session read, no negotiation).
 *
 * One getter function for all requests, which finds its request through the state object: a new
 * getter closure per request gave every request's state object a hidden class of its own, and the
 * garbage collector spent more time on those than the rest of a cookie-less GET cost (issue 20's
 * profiles: 68 us of GC per request, 5 us with the shared getter).
 */
export function requestTranslatorMiddleware(translatorOf: (ctx: Context) => Translate): Middleware {
  const translator: PropertyDescriptor = {
    configurable: true,
    enumerable: false,
    get(this: Record<symbol, Context>) {
      return translatorOf(this[CONTEXT]!);
    },
  };
  return (ctx, next) => {
    Object.defineProperty(ctx.state, CONTEXT, { configurable: true, enumerable: false, writable: true, value: ctx });
    Object.defineProperty(ctx.state, TRANSLATE_STATE_KEY, translator);
    return next();
  };
}
