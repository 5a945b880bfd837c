/**
 * Development tools (the mail previews and caught mails, the jobs dashboard of development, the
 * OpenAPI page when it is on by default) show live reset links and job data: they answer only
 * clients on this machine, decided from the socket's own peer address (never `X-Forwarded-For`,
 * which any client writes), unless the app switches them on for others with
 * `devTools: { remote: true }`. A server bound to another address is warned about them.
 */
import type { Context, Middleware, Next } from "koa";
import { E_CONFIG_INVALID } from "../errors.js";

/** The `devTools` config block. */
export interface DevToolsConfig {
  /** Serve the development tools to clients that are not on this machine (default false). */
  readonly remote?: boolean;
}

/** True for a loopback address: 127.0.0.0/8, ::1, or either as an IPv4-mapped IPv6 address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (typeof address !== "string") return false;
  const bare = address.toLowerCase().replace(/^\[|\]$/g, "");
  if (bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  const v4 = bare.startsWith("::ffff:") ? bare.slice("::ffff:".length) : bare;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** True for a host name a server may bind that only this machine reaches (`localhost`, a loopback address). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname.toLowerCase() === "localhost" || isLoopbackAddress(hostname);
}

/** Checks the `devTools` block at start-up: `remote` is true or false (unknown keys are the host's check). */
export function checkDevToolsConfig(config: object): void {
  const block = (config as { devTools?: unknown }).devTools;
  if (block === undefined) return;
  const remote = (block as { remote?: unknown } | null)?.remote;
  if (typeof block !== "object" || block === null || (remote !== undefined && typeof remote !== "boolean"))
    throw new E_CONFIG_INVALID(
      "config",
      `devTools must be a block { remote: true | false }, not ${JSON.stringify(block)}`,
    );
}

/** Whether `config` lets development tools answer clients that are not on this machine. */
export function devToolsRemote(config: object): boolean {
  const block = (config as { devTools?: DevToolsConfig }).devTools;
  return block?.remote === true;
}

/**
 * Whether a development tool may answer this request: the TCP peer of the request's socket is a
 * loopback address, or the app set `devTools: { remote: true }`. Proxy headers are not read.
 */
export function devToolAllowed(ctx: Context, config: object): boolean {
  return devToolsRemote(config) || isLoopbackAddress(ctx.req.socket?.remoteAddress);
}

/**
 * Wraps a development tool's middleware: requests under `path` from a client that is not on this
 * machine get 403 with a message naming the switch; others reach `tool`; other paths pass by.
 */
export function loopbackOnly(path: string, config: object, tool: Middleware): Middleware {
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== path && !ctx.path.startsWith(`${path}/`)) return tool(ctx, next);
    if (devToolAllowed(ctx, config)) return tool(ctx, next);
    ctx.status = 403;
    ctx.type = "text/plain; charset=utf-8";
    ctx.set("Cache-Control", "no-store");
    ctx.body = `${path} is a development tool and answers only to this machine (127.0.0.1). To open it from another machine, set devTools: { remote: true } in the app's config.`;
  };
}

/**
 * The warning a server bound to `hostname` deserves: undefined when it is a loopback address or no
 * tool is served, else a sentence naming the tools and who they answer.
 */
export function devToolsBindWarning(hostname: string, tools: readonly string[], config: object): string | undefined {
  if (isLoopbackHost(hostname) || tools.length === 0) return undefined;
  return devToolsRemote(config)
    ? `listening on ${hostname}, and devTools.remote is on: every client that reaches this address can open the development tools ${tools.join(", ")} (live reset links, job data). Turn devTools.remote off, or listen on 127.0.0.1.`
    : `listening on ${hostname}: the development tools ${tools.join(", ")} answer only to this machine (403 to other clients); devTools: { remote: true } would open them to every client that reaches this address.`;
}
