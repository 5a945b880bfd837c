/**
 * The one way a framework's translations reach the shared batteries: the request's translator
 * put on `ctx.state` under koa-host's TRANSLATE_STATE_KEY, where the built-in error page (its
 * title), the data battery (pagination labels, a refused form's flash, validation messages) read it.
 * fw-a's translations plugin and fw-b's contrib plugin both install it through this middleware.
 */
import type { Context, Middleware } from "koa";
import { TRANSLATE_STATE_KEY } from "@fwkit/koa-host/plugin";
import type { Translate } from "./translations.js";

// The request a state object belongs to, for the shared getter below (a symbol: spreads and JSON
// of ctx.state do not see it).
const CONTEXT = Symbol("fw-services.request-translator.ctx");

/**
 * A middleware that offers `translatorOf(ctx)` on `ctx.state`; a getter, so a request that shows
 * no translated text never chooses its language (no session read, no negotiation).
 *
 * The getter lives on the prototype of one class for all requests, and the request's state becomes
 * an instance of it (what earlier middleware wrote into the state is copied over): one allocation
 * and no per-request `defineProperty` (CPU profiles of the bench showed it: a new getter closure per request gave
 * every state object a hidden class of its own and 68 us of GC per request; two `defineProperty`
 * calls per request still cost about 2% of a cookie-less GET).
 */
export function requestTranslatorMiddleware(translatorOf: (ctx: Context) => Translate): Middleware {
  class TranslatingState {
    readonly [CONTEXT]: Context;
    constructor(ctx: Context) {
      this[CONTEXT] = ctx;
    }
    get [TRANSLATE_STATE_KEY](): Translate {
      return translatorOf(this[CONTEXT]);
    }
  }
  return (ctx, next) => {
    ctx.state = Object.assign(new TranslatingState(ctx), ctx.state);
    return next();
  };
}
