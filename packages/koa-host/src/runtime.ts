import type { HostRuntime } from "./plugin.js";

export type { HostRuntime } from "./plugin.js";

// Every request's context carries the runtime of the app serving it (host.ts sets it once, on the
// context prototype), so views, plugins and templates read `ctx.runtime` without a cast.
declare module "koa" {
  interface DefaultContext {
    /** The runtime of the app serving this request: config, logger, route table, plugins, base path. */
    readonly runtime: HostRuntime;
  }
}

/** The runtime of the app serving a request (`ctx`), or of a host's context prototype (`host.koa.context`). */
export function runtimeOf(ctx: { readonly runtime: HostRuntime }): HostRuntime {
  return ctx.runtime;
}
