// Shared by the tests: an app on koa-host with only the realtime battery, listening on a port of
// 127.0.0.1 of its own, and a unique Redis key prefix per test.
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { Host } from "@fwkit/koa-host";
import { createHost, currentUserSlot, HostView } from "@fwkit/koa-host/plugin";
import type { Context, Middleware } from "koa";
import { Redis } from "ioredis";
import { defineConventions } from "routing-kernel";
import { realtimePlugin } from "../src/index.js";

class View extends HostView {}
const conventions = defineConventions({ baseClass: View, trailingSlash: false });
// Errors answered as JSON with their code, as the frameworks answer a client that asks for JSON.
const responder = () => ({
  prepare: () => () => {},
  renderError: (ctx: Context, info: { message: string; error: unknown }) => {
    ctx.body = { code: (info.error as { code?: string }).code, message: info.message };
  },
  describe: () => "text",
});

/** Log lines the test can read (`warn` and above). */
export const logged: Array<Record<string, unknown>> = [];
const quiet: Record<string, unknown> = { level: "warn", trace() {}, debug() {}, info() {} };
for (const level of ["warn", "error", "fatal"])
  quiet[level] = (fields: unknown, message?: string) =>
    logged.push(typeof fields === "object" ? { ...(fields as object), msg: message } : { msg: fields });
quiet["child"] = () => quiet;

/** A running app: its host and base URL. */
export interface RunningApp {
  readonly host: Host;
  readonly server: Server;
  readonly url: string;
  close(): Promise<void>;
}

/** Logs the request in as `x-user` says (a stand-in for the security battery's currentUser). */
const userFromHeader: Middleware = async (ctx: Context, next) => {
  const id = ctx.get("x-user");
  if (id) currentUserSlot.set(ctx, { id: Number(id) });
  await next();
};

/** Starts an app with `realtime` as its realtime block and listens on 127.0.0.1. */
export async function startApp(
  realtime: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  middleware: Middleware[] = [],
): Promise<RunningApp> {
  const host = await createHost({
    root: process.cwd(),
    conventions,
    responder,
    modules: [],
    plugins: [{ name: "user", phases: { request: () => [userFromHeader, ...middleware] } }, realtimePlugin()],
    logger: quiet as never,
    config: { env: "test", logRequests: false, realtime, ...extra },
  });
  const server = await host.listen(0, "127.0.0.1");
  const { port } = server.address() as { port: number };
  return { host, server, url: `http://127.0.0.1:${port}`, close: () => host.close() };
}

/** The channels most tests declare: a public one, a private one per order owner. */
export const channels = {
  news: { public: true },
  "orders/:id": {
    authorize: ({ user, params }: { user?: { id: number }; params: { id: string } }) => user?.id === Number(params.id),
  },
};

/** A key prefix no other test (nor another run) uses. */
export function uniquePrefix(label: string): string {
  return `fwrt-test-${label}-${randomBytes(4).toString("hex")}`;
}

/** Deletes every key under `prefix`. */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
