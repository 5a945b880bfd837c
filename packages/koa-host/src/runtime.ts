import type { Logger } from "pino";
import type { RouteTable } from "routing-kernel";
import type { AppConfig } from "./config.js";
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
}

/** The runtime of the app serving a request. */
export function runtimeOf(ctx: object): HostRuntime {
  return (ctx as { runtime: HostRuntime }).runtime;
}
