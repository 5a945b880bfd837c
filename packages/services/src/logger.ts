/**
 * The logging the services need, structurally a subset of pino's `Logger`, so the host's logger
 * is injected as is and tests can pass a recorder.
 */
export interface ServiceLogger {
  /** Reports a failure that was contained (a signal receiver that threw, a cache write that failed). */
  error(details: object, message: string): void;
  /** Reports something worth a look that did not fail. */
  warn(details: object, message: string): void;
}

/** The logger used until one is injected: writes to stderr. */
export const consoleLogger: ServiceLogger = {
  error(details, message) {
    console.error(message, details);
  },
  warn(details, message) {
    console.warn(message, details);
  },
};
