/** What a worker tells the cluster primary. */
export type WorkerMessage =
  | {
      readonly fw: "ready";
      readonly url: string;
      readonly graceMs: number;
      readonly pid: number;
      // The required readiness checks that failed at boot (name: reason); absent when it is ready.
      readonly unready?: Readonly<Record<string, string>>;
    }
  | { readonly fw: "failed"; readonly message: string; readonly code: string | undefined }
  // Its server is closed and its requests are done; it waits for EXIT_MESSAGE before exiting.
  | { readonly fw: "drained" };

/** What the primary tells a worker: stop gracefully. */
export const SHUTDOWN_MESSAGE = Object.freeze({ fw: "shutdown" });

/**
 * What the primary answers a drained worker: it has taken the worker out of its round-robin, so
 * every connection it handed the worker before this message has already arrived (and been sent
 * back): the worker may exit without leaving a connection behind.
 */
export const EXIT_MESSAGE = Object.freeze({ fw: "exit" });

/**
 * What the primary sends with a connection a dead worker never took: serve it (the socket is the
 * message's handle). See handoffs.ts.
 */
export const CONNECTION_MESSAGE = Object.freeze({ fw: "connection" });

/** True for a handed-over connection. */
export function isConnectionMessage(message: unknown): boolean {
  return isFw(message, "connection");
}

const isFw = (message: unknown, fw: string): boolean =>
  typeof message === "object" && message !== null && (message as { fw?: unknown }).fw === fw;

/** True for the primary's shutdown message. */
export function isShutdownMessage(message: unknown): boolean {
  return isFw(message, "shutdown");
}

/** True for the primary's permission to exit. */
export function isExitMessage(message: unknown): boolean {
  return isFw(message, "exit");
}

/** A worker's message, or undefined for anything else on the channel. */
export function workerMessage(message: unknown): WorkerMessage | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const fw = (message as { fw?: unknown }).fw;
  return fw === "ready" || fw === "failed" || fw === "drained" ? (message as WorkerMessage) : undefined;
}
