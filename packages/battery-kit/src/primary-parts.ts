/**
 * Parts of a battery that run once per node, in the cluster primary of `start --workers N` (the
 * observability battery's metrics port, which sums the workers). A worker asks with
 * {@link askPrimary}: the primary (the cluster runner, through {@link answerPartRequest}) imports
 * the named module once and hands it the request; the module's `primaryPart(request, worker)` answers. The primary knows no battery: it runs what its
 * own workers name, and nothing when no battery asks.
 */
import type { Worker } from "node:cluster";
import { E_CLUSTER_PRIMARY_UNAVAILABLE } from "./errors.js";

/**
 * The variable the primary sets in its workers' environment: its pid, so a worker knows its parent
 * answers {@link askPrimary} (a process the worker starts in turn inherits the variable, but not
 * the parent).
 */
export const PRIMARY_PARTS_ENV = Object.freeze({ FW_PRIMARY_PARTS: String(process.pid) });

/** What a module run in the primary exports. */
export interface PrimaryPartModule {
  /** Answers one request of a worker; a thrown error (a coded one: its code travels) fails the ask. */
  primaryPart(request: unknown, worker: Worker): unknown;
}

interface Ask {
  readonly fw: "part";
  readonly id: number;
  readonly module: string;
  readonly request: unknown;
}

/** The primary's answer to an ask. */
export interface PartAnswer {
  readonly fw: "part-answer";
  readonly id: number;
  readonly result?: unknown;
  readonly error?: { readonly message: string; readonly code?: string };
}

const isAsk = (message: unknown): message is Ask =>
  typeof message === "object" &&
  message !== null &&
  (message as { fw?: unknown }).fw === "part" &&
  typeof (message as Ask).module === "string";

const loaded = new Map<string, Promise<PrimaryPartModule>>();

/**
 * Primary side: the answer to one of `worker`'s messages when it is an ask (the module it names,
 * imported once, answers it), else `undefined`. The cluster runner sends the answer back.
 */
export function answerPartRequest(message: unknown, worker: Worker): Promise<PartAnswer> | undefined {
  if (!isAsk(message)) return undefined;
  const { id, module } = message;
  const part = loaded.get(module) ?? (import(module) as Promise<PrimaryPartModule>);
  loaded.set(module, part);
  return part
    .then((exported) => exported.primaryPart(message.request, worker))
    .then(
      (result): PartAnswer => ({ fw: "part-answer", id, result }),
      (error: unknown): PartAnswer => ({
        fw: "part-answer",
        id,
        error: { message: (error as Error)?.message ?? String(error), code: (error as { code?: string })?.code },
      }),
    );
}

/** True in a worker whose primary answers {@link askPrimary}. */
export function hasPrimaryParts(): boolean {
  // Read from the environment, not node:cluster (a process that only serves requests never loads
  // it), and not from NODE_UNIQUE_ID, which Node removes from a worker's environment at start-up.
  return process.env["FW_PRIMARY_PARTS"] === String(process.ppid) && typeof process.send === "function";
}

let nextId = 0;
const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let listening = false;

/**
 * Worker side: asks the primary to run `request` through the module at `module` (a file URL), and
 * resolves with its answer; rejects with the primary's error (its `code` kept) or after `timeoutMs`.
 */
export function askPrimary(module: string, request: unknown, timeoutMs = 5000): Promise<unknown> {
  if (!listening) {
    listening = true;
    process.on("message", (message: unknown) => {
      const answer = message as PartAnswer;
      if (answer?.fw !== "part-answer") return;
      const pending = waiting.get(answer.id);
      if (!pending) return;
      waiting.delete(answer.id);
      if (answer.error)
        pending.reject(
          Object.assign(new Error(answer.error.message), answer.error.code ? { code: answer.error.code } : {}),
        );
      else pending.resolve(answer.result);
    });
  }
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new E_CLUSTER_PRIMARY_UNAVAILABLE(`it did not answer in ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    waiting.set(id, {
      resolve: (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    process.send!({ fw: "part", id, module, request } satisfies Ask);
  });
}
