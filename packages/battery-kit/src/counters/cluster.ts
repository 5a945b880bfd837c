/**
 * Attempt counters shared by the workers of one node: under `start --workers N` the cluster
 * primary keeps the counters ({@link WindowCounts}) and each worker asks it over the cluster's IPC
 * channel, so a limit holds for the node, not per worker. Counters of several nodes need a shared
 * store (Redis) instead.
 */
import { E_CLUSTER_PRIMARY_UNAVAILABLE } from "../errors.js";
import type { WindowCounts, CounterLimit, TakeResult } from "./window-counts.js";

/** The variable the primary sets in its workers' environment: its counter service answers. */
export const CLUSTER_COUNTERS_ENV = Object.freeze({ FW_CLUSTER_COUNTERS: "1" });

// A worker that gets no answer in this time treats the counters as unreachable (its limits fail closed).
const ANSWER_MS = 2000;

type Operation =
  | { readonly op: "take"; readonly limits: readonly CounterLimit[]; readonly windowMs: number }
  | { readonly op: "release" | "reset"; readonly key: string };

type Request = Operation & { readonly fw: "counters"; readonly id: number };

/** The primary's answer to one counter request. */
export interface CounterAnswer {
  readonly fw: "counters-answer";
  readonly id: number;
  readonly result?: TakeResult;
  readonly error?: string;
}

function isRequest(message: unknown): message is Request {
  return typeof message === "object" && message !== null && (message as { fw?: unknown }).fw === "counters";
}

/**
 * Primary side: the answer to one message a worker sent on the cluster channel, from the node's
 * counters, or `undefined` when the message is not a counter request. Anything malformed gets an
 * error answer, never a crash. The primary's loop that calls it lives with the cluster runner.
 */
export function answerCounterRequest(counts: WindowCounts, message: unknown): CounterAnswer | undefined {
  if (!isRequest(message) || typeof message.id !== "number") return undefined;
  const request = message;
  const { id } = request;
  if (request.op === "take") {
    const { limits, windowMs } = request;
    const valid =
      Array.isArray(limits) &&
      limits.every(
        (item) =>
          typeof item?.key === "string" &&
          Number.isInteger(item.limit) &&
          (item.windowMs === undefined || (Number.isInteger(item.windowMs) && item.windowMs > 0)),
      ) &&
      Number.isInteger(windowMs) &&
      windowMs > 0;
    return valid
      ? { fw: "counters-answer", id, result: counts.take(limits, windowMs) }
      : { fw: "counters-answer", id, error: "a malformed take request" };
  }
  if (typeof request.key !== "string") return { fw: "counters-answer", id, error: "a request without a key" };
  if (request.op === "release") counts.release(request.key);
  else if (request.op === "reset") counts.reset(request.key);
  else return { fw: "counters-answer", id, error: "an unknown operation" };
  return { fw: "counters-answer", id };
}

/** Worker side: the node's shared counters, asked through the cluster primary. */
export interface ClusterCounters {
  take(limits: readonly CounterLimit[], windowMs: number): Promise<TakeResult>;
  release(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  /** Nothing to close (the channel belongs to the worker); kept for the counter interface. */
  close(): Promise<void>;
}

let client: ClusterCounters | undefined;

/**
 * The node's shared counters when this process is a worker of `start --workers` (the primary
 * serves them), else `undefined`: the caller keeps its counters in its own memory.
 */
export function clusterCounters(): ClusterCounters | undefined {
  if (process.env["FW_CLUSTER_COUNTERS"] !== CLUSTER_COUNTERS_ENV.FW_CLUSTER_COUNTERS || !process.send)
    return undefined;
  if (client) return client;
  const pending = new Map<
    number,
    { resolve: (answer: CounterAnswer) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  let next = 0;
  const failAll = (reason: string) => {
    for (const [id, waiter] of pending) {
      clearTimeout(waiter.timer);
      pending.delete(id);
      waiter.reject(new E_CLUSTER_PRIMARY_UNAVAILABLE(reason));
    }
  };
  process.on("message", (message: unknown) => {
    const reply = message as Partial<CounterAnswer> | null;
    if (typeof reply !== "object" || reply === null || reply.fw !== "counters-answer" || typeof reply.id !== "number")
      return;
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    clearTimeout(waiter.timer);
    if (reply.error) waiter.reject(new E_CLUSTER_PRIMARY_UNAVAILABLE(`it refused a counter request (${reply.error})`));
    else waiter.resolve(reply as CounterAnswer);
  });
  process.on("disconnect", () => failAll("the cluster primary is gone"));
  const ask = (operation: Operation): Promise<CounterAnswer> =>
    new Promise((resolve, reject) => {
      if (!process.connected || !process.send) {
        reject(new E_CLUSTER_PRIMARY_UNAVAILABLE("the cluster primary is gone"));
        return;
      }
      const id = ++next;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new E_CLUSTER_PRIMARY_UNAVAILABLE(`it did not answer a counter request within ${ANSWER_MS} ms`));
      }, ANSWER_MS);
      timer.unref();
      pending.set(id, { resolve, reject, timer });
      process.send({ ...operation, fw: "counters", id }, undefined, {}, (error: Error | null) => {
        if (!error) return;
        clearTimeout(timer);
        pending.delete(id);
        reject(error);
      });
    });
  client = {
    take: async (limits, windowMs) =>
      (await ask({ op: "take", limits: limits.map(({ key, limit }) => ({ key, limit })), windowMs })).result!,
    release: async (key) => void (await ask({ op: "release", key })),
    reset: async (key) => void (await ask({ op: "reset", key })),
    close: async () => undefined,
  };
  return client;
}
