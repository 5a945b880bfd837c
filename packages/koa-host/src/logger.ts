import type { Middleware } from "koa";
import { pino, type Logger } from "pino";
import type pretty from "pino-pretty";
import type { AppConfig } from "./config.js";
import { requireDevTool } from "./dev-tools.js";
import { currentRequestId } from "./production/request-id.js";

// pino-pretty (and its dependencies) is loaded only when a development logger is made: production
// processes, tests that pass their own logger and tools that import koa-host never load it. It is
// a development dependency of the app: without it (a production install run without APP_ENV)
// development logs are JSON lines, after one line saying how to get readable ones.
let prettyMissingTold = false;
function prettyPrinter(): typeof pretty | undefined {
  try {
    return requireDevTool<typeof pretty>("pino-pretty", "readable development log");
  } catch (error) {
    if (!prettyMissingTold) {
      prettyMissingTold = true;
      process.stderr.write(`${(error as Error).message} Until then, development logs are JSON lines.\n`);
    }
    return undefined;
  }
}

// Every line logged while a request runs carries its id (see production/request-id.ts).
const withRequestId = () => {
  const reqId = currentRequestId();
  return reqId === undefined ? {} : { reqId };
};

/**
 * Creates the app's pino logger: pretty and synchronous in development, JSON lines otherwise;
 * lines logged during a request carry its `reqId`.
 */
export function createLogger(config: Pick<AppConfig, "env" | "logLevel">, name = "app"): Logger {
  const prettyStream = config.env === "development" ? prettyPrinter() : undefined;
  if (prettyStream) {
    return pino({ name, level: config.logLevel, mixin: withRequestId }, prettyStream({ colorize: process.stdout.isTTY ?? false, sync: true, singleLine: true, ignore: "pid,hostname,name,method,path,status" }));
  }
  return pino({ name, level: config.logLevel, mixin: withRequestId });
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
