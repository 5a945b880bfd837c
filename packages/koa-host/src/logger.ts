import type { Context } from "koa";
import { pino, type DestinationStream, type Logger } from "pino";
import type pretty from "pino-pretty";
import type { AppConfig } from "./config.js";
import type { HostPlugin, HostRuntime, RequestLogFields } from "./plugin.js";
import { requireDevTool } from "./dev-tools.js";
import { E_PRODUCTION_CONFIG } from "./errors.js";
import { stdoutTurnLines } from "./log-destination.js";
import { isoTimeField } from "./log-time.js";
import { requestIdSlot, routeSlot } from "./request-state.js";

/**
 * The fields a logger's mixin adds to a line, as pino calls it: with the line's own fields, its
 * level and the logger (the trace fields leave out a `reqId` the line has already).
 */
export type LogMixin = (line: object, level: number, logger: Logger) => Record<string, unknown>;

/** The loggers `createLogger` made with JSON lines, and the mixin each adds (`undefined`: none). */
const ownLoggers = new WeakMap<Logger, LogMixin | undefined>();

/**
 * The mixin of a logger `createLogger` made with JSON lines (`undefined` when it has none), or
 * `false` for any other logger: only those lines may be written without pino's general path.
 */
export function ownLoggerMixin(logger: Logger): LogMixin | undefined | false {
  return ownLoggers.has(logger) ? ownLoggers.get(logger) : false;
}

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

/** How log lines write their time (`logTime`): ISO 8601 in UTC (default), or pino's epoch milliseconds. */
export type LogTime = "iso" | "epoch";

/** Reads `logTime`; anything but `"iso"` or `"epoch"` stops the start with E_PRODUCTION_CONFIG. */
export function logTimeOf(value: unknown): LogTime {
  if (value === undefined || value === "iso" || value === "epoch") return value ?? "iso";
  throw new E_PRODUCTION_CONFIG(
    "logTime",
    '"iso" (2026-11-27T15:58:52.998Z, the default) or "epoch" (milliseconds since 1970)',
    value,
  );
}

/**
 * pino's own merge copies every field of a line into the mixin's object; when the mixin adds
 * nothing (no trace under way) the line is written as it is, with no copy. The line's own fields
 * win over the mixin's, as in pino's merge.
 */
const mergeLineFields = (line: object, added: object): object => {
  for (const _ in added) return Object.assign(added, line);
  return line;
};

/**
 * Creates the app's pino logger: pretty and synchronous in development, JSON lines otherwise. A
 * request's own lines go through `ctx.log` (its child with the request's `reqId`). `fields`, when
 * given, adds its fields to every line (the request's trace, from the observability battery).
 */
export function createLogger(
  config: Pick<AppConfig, "env" | "logLevel"> & { readonly logTime?: unknown },
  name = "app",
  fields?: () => Record<string, unknown>,
): Logger {
  const time = logTimeOf(config.logTime);
  const mixin = fields ? { mixin: fields, mixinMergeStrategy: mergeLineFields } : {};
  const prettyStream = config.env === "development" ? prettyPrinter() : undefined;
  if (prettyStream) {
    const translateTime = time === "iso" ? "UTC:yyyy-mm-dd'T'HH:MM:ss.l'Z'" : false;
    return pino(
      { name, level: config.logLevel, ...mixin },
      prettyStream({
        colorize: process.stdout.isTTY ?? false,
        sync: true,
        singleLine: true,
        translateTime,
        ignore: "pid,hostname,name,method,path,status,ip,userAgent,bytes,route",
      }),
    );
  }
  return jsonLogger(config, name, fields, stdoutTurnLines());
}

/**
 * The JSON-lines logger of {@link createLogger}, writing to `destination` (standard output's
 * {@link stdoutTurnLines} in an app; a test gives its own).
 */
export function jsonLogger(
  config: Parameters<typeof createLogger>[0],
  name: string,
  fields: (() => Record<string, unknown>) | undefined,
  destination: DestinationStream,
): Logger {
  const mixin = fields ? { mixin: fields, mixinMergeStrategy: mergeLineFields } : {};
  // ISO times: what log shippers (Loki, Elasticsearch, CloudWatch) read without a parser rule.
  const iso = logTimeOf(config.logTime) === "iso";
  const logger = pino(
    { name, level: config.logLevel, ...mixin, ...(iso ? { timestamp: isoTimeField } : {}) },
    destination,
  );
  ownLoggers.set(logger, fields as LogMixin | undefined);
  return logger;
}

/** One {@link RequestLogFields} for the plugins that have any, in plugin order; `undefined` for none. */
export function requestLogFieldsOf(plugins: readonly HostPlugin[]): RequestLogFields | undefined {
  const each = plugins.map((plugin) => plugin.requestLogFields?.()).filter((f) => f !== undefined);
  if (each.length === 0) return undefined;
  if (each.length === 1) return each[0];
  return (ctx) => Object.assign({}, ...each.map((fields) => fields(ctx)));
}

/**
 * The name of the route that answered a request, for logs and metrics: the view's `Class.method`
 * (`Blog.show`), a hand-written route's pattern (`/api/items/:id`), else `undefined` (a static
 * file, a 404). Never the raw path: one name per route, whatever its parameters.
 */
export function routeNameOf(ctx: Context): string | undefined {
  // The view that answered is on the state already (the dispatcher put it there): no second lookup.
  const answered = routeSlot.get(ctx);
  if (answered) return answered.id;
  // A bare Koa app (the request logger alone, no host) has no runtime on its context.
  let view: { readonly id: string } | undefined;
  try {
    view = (ctx.runtime as HostRuntime | undefined)?.lookupRoute(ctx)?.route;
  } catch {
    // A path that cannot be decoded matches no route; its 400 is answered (and logged) already.
    return undefined;
  }
  if (view) return view.id;
  const pattern = (ctx as unknown as { routerPath?: unknown }).routerPath;
  return typeof pattern === "string" ? pattern : undefined;
}

const OWN_LOG = Symbol("koa-host.log");

/**
 * Puts `ctx.log` on an app's context prototype: the app logger's child carrying the request's
 * `reqId`, made on first use (a request that logs nothing makes none). Views, hooks and middleware
 * log through it so their lines can be joined with the request's.
 */
export function installContextLogger(context: object, logger: Logger): void {
  Object.defineProperty(context, "log", {
    configurable: true,
    enumerable: false,
    get(this: { [OWN_LOG]?: Logger }): Logger {
      const reqId = requestIdSlot.get(this);
      if (reqId === undefined) return logger;
      return (this[OWN_LOG] ??= logger.child({ reqId }));
    },
  });
}
