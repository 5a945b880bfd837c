/** What a worker tells the cluster primary. */
export type WorkerMessage =
  | { readonly fw: "ready"; readonly url: string; readonly graceMs: number; readonly pid: number }
  | { readonly fw: "failed"; readonly message: string; readonly code: string | undefined };

/** What the primary tells a worker: stop gracefully. */
export const SHUTDOWN_MESSAGE = Object.freeze({ fw: "shutdown" });

/** True for the primary's shutdown message. */
export function isShutdownMessage(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as { fw?: unknown }).fw === "shutdown";
}

/** A worker's message, or undefined for anything else on the channel. */
export function workerMessage(message: unknown): WorkerMessage | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const fw = (message as { fw?: unknown }).fw;
  return fw === "ready" || fw === "failed" ? (message as WorkerMessage) : undefined;
}
