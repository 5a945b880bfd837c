/**
 * The values plugins offer on every request's `ctx.state` through getters (`HostPlugin.stateGetters`:
 * the request's translator, whose language is chosen only when a text needs it). The getters of all
 * plugins go on the prototype of one class, made at start-up; the host's front layer makes each
 * request's state an instance of it. So a getter costs a request nothing until it is read: no
 * middleware, no closure and no property definition per request, and every state object shares one
 * hidden class.
 */
import type { Context } from "koa";
import { E_STATE_GETTER_TAKEN } from "./errors.js";
import type { HostPlugin, StateGetters } from "./plugin.js";

// The request a state object belongs to, read by the getters. A symbol: JSON of ctx.state does not see it.
const CONTEXT = Symbol("koa-host.state.ctx");

/**
 * The step that gives a request's `ctx.state` the plugins' getters, keeping what earlier middleware
 * wrote into it; `undefined` when no plugin offers one. Two plugins offering the same key stop the start.
 */
export function stateInstaller(plugins: readonly HostPlugin[]): ((ctx: Context) => void) | undefined {
  const owners = new Map<string, string>();
  const getters: Array<[string, StateGetters[string]]> = [];
  for (const plugin of plugins) {
    for (const [key, getter] of Object.entries(plugin.stateGetters?.() ?? {})) {
      const owner = owners.get(key);
      if (owner !== undefined) throw new E_STATE_GETTER_TAKEN(key, owner, plugin.name);
      owners.set(key, plugin.name);
      getters.push([key, getter]);
    }
  }
  if (getters.length === 0) return undefined;
  class RequestState {
    readonly [CONTEXT]: Context;
    constructor(ctx: Context) {
      this[CONTEXT] = ctx;
    }
  }
  for (const [key, getter] of getters) {
    Object.defineProperty(RequestState.prototype, key, {
      get(this: RequestState) {
        return getter(this[CONTEXT]);
      },
      configurable: true,
    });
  }
  return (ctx) => {
    ctx.state = Object.assign(new RequestState(ctx), ctx.state);
  };
}
