import { createServer } from "node:http";
import Koa from "koa";
import helmet from "koa-helmet";
import { createSession } from "koa-session";
import { pino } from "pino";
import { TEXT_BODY } from "../workloads.js";
import { csrfMatches, UNSAFE_METHODS } from "./csrf-check.js";
import { closeServer, listenOn, type RunningServer } from "./types.js";

const SECRET = crypto.randomUUID();

/**
 * Bare Koa with the koa middleware that does what a scaffolded fw-a/fw-b app does in production:
 * koa-helmet with its defaults, a pino JSON line per request at level info (method, path, status,
 * ms, as koa-host logs it), koa-session signed cookie sessions (nothing is written for a request
 * that leaves its session untouched) and a CSRF guard on unsafe methods against a secret kept in
 * the session. The one workload is the text route, hand-matched as in bare-koa.ts.
 */
export async function startProduction(port: number): Promise<RunningServer> {
  const server = createServer(productionKoa().callback());
  const bound = await listenOn(server, port);
  return { port: bound, timings: {}, close: () => closeServer(server) };
}

/** The Koa app of {@link startProduction} (the in-process harness calls its callback directly). */
export function productionKoa(): Koa {
  const app = new Koa({ keys: [SECRET] });
  const logger = pino({ name: "app", level: "info" });
  app.use(async (ctx, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - start) * 10) / 10;
      logger.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms },
        `${ctx.method} ${ctx.path} ${ctx.status}`,
      );
    }
  });
  app.use(helmet());
  app.use(createSession({ key: "session", maxAge: 86_400_000, httpOnly: true, sameSite: "lax", signed: true }, app));
  app.use(async (ctx, next) => {
    if (UNSAFE_METHODS.has(ctx.method)) {
      const session = ctx.session as unknown as Record<string, unknown> | null;
      if (!csrfMatches(ctx.get("x-csrf-token"), session?.["csrf"])) ctx.throw(403, "CSRF token missing or wrong");
    }
    await next();
  });
  app.use((ctx) => {
    if (ctx.path === "/text") {
      ctx.type = "text/plain; charset=utf-8";
      ctx.body = TEXT_BODY;
    }
  });
  return app;
}
