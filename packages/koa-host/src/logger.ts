import type { Middleware } from "koa";
import { pino, type Logger } from "pino";
import pretty from "pino-pretty";
import type { AppConfig } from "./config.js";

/** Creates the app's pino logger: pretty and synchronous in development, JSON lines otherwise. */
export function createLogger(config: Pick<AppConfig, "env" | "logLevel">, name = "app"): Logger {
  if (config.env === "development") {
    return pino({ name, level: config.logLevel }, pretty({ colorize: process.stdout.isTTY ?? false, sync: true, singleLine: true, ignore: "pid,hostname,name,method,path,status" }));
  }
  return pino({ name, level: config.logLevel });
}

/** Logs one line per request (method, path, status, milliseconds) when the level allows it. */
export function requestLogger(logger: Logger): Middleware {
  if (!logger.isLevelEnabled("info")) return (_ctx, next) => next();
  return async (ctx, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - start) * 10) / 10;
      logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms }, `${ctx.method} ${ctx.path} ${ctx.status}`);
    }
  };
}
