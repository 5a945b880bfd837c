import type { HostPlugin } from "@fwkit/koa-host/plugin";
import { translatorStateGetters } from "@fwkit/services/battery";
import { translatorOf } from "../runtime.js";

/**
 * The plugin that offers the request's translator on `ctx.state` (services' one mechanism, as
 * fw-a's translations plugin does) for the shared batteries: error page titles, pagination labels,
 * form flashes. The host gives every request's state the getter before any middleware runs, so an
 * error the batteries' middleware raises (a refused CSRF token, a session store that is down) still
 * gets its page in the request's language; the language itself is chosen when first used (the user,
 * the session, Accept-Language), by then with the session and the user loaded.
 */
export function translatorPlugin(): HostPlugin {
  return {
    name: "fw-b-translator",
    stateGetters: () => translatorStateGetters(translatorOf),
  };
}
