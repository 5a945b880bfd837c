import { report, telemetry } from "./telemetry.js";

/** What an {@link OutageLog} writes to: pino's logger fits, and so does the services' logger. */
export interface OutageLogger {
  warn(details: object, message: string): void;
  info?(details: object, message: string): void;
}

/** Options of {@link outageLog}. */
export interface OutageLogOptions {
  /** Where the lines go. */
  readonly logger: OutageLogger;
  /** What is down, as the operator knows it: `security: the redis session store`. */
  readonly name: string;
  /** How often a line repeats while the outage lasts (default every 60 s). */
  readonly repeatMs?: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

/**
 * The state of one backing service (a Redis client, a session store) as the log tells it. Every
 * failure is reported to it, per request or per reconnect attempt; it writes one line when the
 * service goes down, one every `repeatMs` while it stays down (with the count of failures since
 * the last line), and one when it is back: never one per request.
 */
export interface OutageLog {
  /** True between a failure and the next recovery. */
  readonly down: boolean;
  /** Reports a failure (a refused connection, a command that failed). */
  failed(error: unknown): void;
  /** Reports that the service answers again; cheap when it was not down. */
  recovered(): void;
}

/** Makes the {@link OutageLog} of one service: the one place the batteries' outage-logging rule lives. */
export function outageLog(options: OutageLogOptions): OutageLog {
  const { logger, name } = options;
  const repeatMs = options.repeatMs ?? 60_000;
  const now = options.now ?? Date.now;
  let since = 0;
  let lastLine = 0;
  let failures = 0;
  let unreported = 0;
  const state: OutageLog = {
    down: false,
    failed(error) {
      // Metrics count failures and show the state (the observability battery); nothing when unobserved.
      report(telemetry.outage, () => ({ service: name, down: true, failure: true }));
      failures++;
      unreported++;
      const at = now();
      const reason = error instanceof Error ? error.message : String(error);
      if (!state.down) {
        (state as { down: boolean }).down = true;
        since = at;
        lastLine = at;
        unreported = 0;
        logger.warn(
          { err: error, service: name },
          `${name} failed (${reason}); it is down, retried, and logged again every ${Math.round(repeatMs / 1000)} s while it lasts`,
        );
      } else if (at - lastLine >= repeatMs) {
        const count = unreported;
        lastLine = at;
        unreported = 0;
        logger.warn(
          { err: error, service: name, failures: count, downMs: at - since },
          `${name} is still down after ${Math.round((at - since) / 1000)} s (${count} failure${count === 1 ? "" : "s"} in the last ${Math.round(repeatMs / 1000)} s): ${reason}`,
        );
      }
    },
    recovered() {
      if (!state.down) return;
      (state as { down: boolean }).down = false;
      report(telemetry.outage, () => ({ service: name, down: false, failure: false }));
      const downMs = now() - since;
      const line = `${name} is back after ${Math.round(downMs / 1000)} s (${failures} failure${failures === 1 ? "" : "s"} while down)`;
      failures = 0;
      unreported = 0;
      (logger.info ?? logger.warn).call(logger, { service: name, downMs }, line);
    },
  };
  return state;
}

/** The events {@link watchConnection} listens to (an ioredis client has them). */
export interface ConnectionEvents {
  on(event: "error" | "ready", listener: (error?: unknown) => void): unknown;
}

/**
 * Feeds a client's connection events to an {@link OutageLog}: `error` is a failure, `ready` a
 * recovery. Listening to `error` also keeps an ioredis client from raising unhandled errors.
 */
export function watchConnection(client: ConnectionEvents, log: OutageLog): void {
  client.on("error", (error) => log.failed(error));
  client.on("ready", () => log.recovered());
}

const REPORTED = Symbol.for("koa-host.outage-reported");

/**
 * Marks an error that an {@link OutageLog} has already accounted for (a 503 because the session
 * store is down), so the host's error handler does not log it again for every request.
 */
export function markOutageReported<E extends object>(error: E): E {
  Object.defineProperty(error, REPORTED, { value: true, enumerable: false });
  return error;
}

/** True for an error given to {@link markOutageReported}. */
export function isOutageReported(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[REPORTED] === true;
}
