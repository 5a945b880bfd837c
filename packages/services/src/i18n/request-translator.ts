/**
 * The one way a framework's translations reach the shared batteries: the request's translator
 * offered on `ctx.state` under koa-host's TRANSLATE_STATE_KEY, where the built-in error page (its
 * title) and the data battery (pagination labels, a refused form's flash, validation messages) read
 * it. fw-a's translations plugin and fw-b's contrib plugin both offer it through these getters.
 */
import type { Context } from "koa";
import { TRANSLATE_STATE_KEY, type StateGetters } from "@fwkit/koa-host/plugin";
import type { Translate } from "./translations.js";

/**
 * A plugin's `stateGetters` for `ctx.state.translate`: a getter, so a request that shows no
 * translated text never chooses its language (no session read, no negotiation), and, put on the
 * host's one state class at start-up, no middleware and no allocation of its own per request.
 */
export function translatorStateGetters(translatorOf: (ctx: Context) => Translate): StateGetters {
  return { [TRANSLATE_STATE_KEY]: translatorOf };
}
