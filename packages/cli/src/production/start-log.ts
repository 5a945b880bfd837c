import type { Logger } from "pino";
import { FrameworkError } from "routing-kernel";
import { createLogger } from "@fwkit/koa-host/plugin";
import type { PrimaryLog } from "./primary.js";

let logger: Logger | undefined;

/**
 * The `start` process's own logger (the cluster primary, or the only process with `--workers 1`
 * before the app's logger exists): JSON lines with ISO times like the workers' in production, so
 * one shipper reads them all. Its lines are few (start, crashes, restarts, a refused start) and
 * always logged at info, whatever LOG_LEVEL says about the app's.
 */
export function startLogger(): Logger {
  return (logger ??= createLogger({ env: process.env["APP_ENV"] || "production", logLevel: "info" }, "start"));
}

/** The primary's log over {@link startLogger}: the message, and the fields beside it. */
export function primaryLog(log: Logger = startLogger()): PrimaryLog {
  return {
    info: (message, fields = {}) => log.info(fields, message),
    warn: (message, fields = {}) => log.warn(fields, message),
    error: (message, fields = {}) => log.error(fields, message),
  };
}

/** Logs why `start` was refused (`E_...: message`, the code as a field) before it exits 1. */
export function logStartFailure(error: unknown): void {
  const coded = error instanceof FrameworkError;
  const message = coded ? `${error.code}: ${error.message}` : ((error as Error)?.message ?? String(error));
  startLogger().error(coded ? { code: error.code } : {}, message);
}
