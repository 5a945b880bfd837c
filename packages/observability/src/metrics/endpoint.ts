/**
 * Serving the metrics: on a port of their own (default; the balancer never routes to it), or on
 * the app's port behind a bearer token. Either way only `GET <path>` answers, and a token, when
 * set, must come as `Authorization: Bearer <token>` (compared in constant time).
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Middleware } from "koa";
import { nodeHttp } from "@fwkit/koa-host/plugin";
import { E_METRICS_PORT_IN_USE } from "../errors.js";
import type { MetricsSettings } from "../settings.js";
import { CONTENT_TYPE } from "./registry.js";

/** Reads the metrics to answer a scrape with (this process's, or the node's through the primary). */
export type Collect = () => Promise<string>;

/** True when the request carries the token (or none is required). */
export function authorized(token: string | undefined, header: string | undefined): boolean {
  if (token === undefined) return true;
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Answers one scrape: 200 with the text, 401 without the token, 503 when collecting failed. */
async function answer(
  token: string | undefined,
  collect: Collect,
  authorization: string | undefined,
): Promise<{ status: number; type: string; body: string; headers?: Record<string, string> }> {
  if (!authorized(token, authorization))
    return {
      status: 401,
      type: "text/plain; charset=utf-8",
      body: "A bearer token is required.\n",
      headers: { "www-authenticate": 'Bearer realm="metrics"' },
    };
  try {
    return { status: 200, type: CONTENT_TYPE, body: await collect() };
  } catch (error) {
    return { status: 503, type: "text/plain; charset=utf-8", body: `${(error as Error).message}\n` };
  }
}

/** The handler of a metrics port: `GET <path>` answers, everything else is 404. */
export function metricsHandler(
  settings: Pick<MetricsSettings, "path" | "token">,
  collect: Collect,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== settings.path || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`Metrics are at ${settings.path}.\n`);
      return;
    }
    void answer(settings.token, collect, req.headers.authorization).then(({ status, type, body, headers }) => {
      res
        .writeHead(status, { "content-type": type, "cache-control": "no-store", ...headers })
        .end(req.method === "HEAD" ? undefined : body);
    });
  };
}

/** Listens on the metrics port; a busy port is E_METRICS_PORT_IN_USE. */
export async function listenMetrics(
  settings: Pick<MetricsSettings, "path" | "token" | "port" | "host">,
  collect: Collect,
): Promise<Server> {
  const server = nodeHttp.createServer(metricsHandler(settings, collect));
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new E_METRICS_PORT_IN_USE(`${settings.host}:${settings.port}`) : error),
    );
    server.listen(settings.port as number, settings.host, () => resolve());
  });
  return server;
}

/** On the app's port: answers `GET <path>` before anything else (no session, no log line), else hands on. */
export function metricsRoute(settings: Pick<MetricsSettings, "path" | "token">, collect: Collect): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== settings.path || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next();
    const { status, type, body, headers } = await answer(
      settings.token,
      collect,
      ctx.get("authorization") || undefined,
    );
    ctx.status = status;
    ctx.type = type;
    ctx.set("Cache-Control", "no-store");
    for (const [name, value] of Object.entries(headers ?? {})) ctx.set(name, value);
    ctx.body = body;
  };
}
