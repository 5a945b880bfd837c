import type { Logger } from "pino";
import type { RouteTable } from "routing-kernel";
import type { Context } from "koa";
import type { AppConfig } from "./config.js";
import type { RouteLookup } from "./dispatch.js";
import type { HostPlugin } from "./plugin.js";

/**
 * What the host puts on every Koa context as `ctx.runtime` (once, on the context prototype; not
 * `ctx.host`, which Koa already uses for the Host header).
 */
export interface HostRuntime {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly table: RouteTable;
  readonly plugins: readonly HostPlugin[];
  /** URL prefix when the app is mounted inside another ("" otherwise). */
  readonly basePath: string;
  /**
   * What the view dispatcher will do with this request (its route, or that it answers by itself),
   * for app-wide middleware that runs before it (the CSRF check); undefined for a path no view
   * route answers. Matches once per request: the dispatcher reuses the answer.
   */
  lookupRoute(ctx: Context): RouteLookup | undefined;
}

/** The runtime of the app serving a request. */
export function runtimeOf(ctx: object): HostRuntime {
  return (ctx as { runtime: HostRuntime }).runtime;
}
