// The soak harness: the same load, several rounds, against one app in this process;
// after each round the heap is measured after a full garbage collection, so what a round leaves
// behind shows as growth from round to round.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** A full collection: `--expose-gc` turned on at run time, so the test runner needs no flag. */
export function fullGc(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (() => void) | undefined;
  if (typeof gc !== "function") throw new Error("gc() is not available: run node with --expose-gc");
  return () => {
    // Several passes: weak maps and finalizers free their entries over more than one.
    for (let i = 0; i < 4; i++) gc();
  };
}

/** One step of the load: one or more requests through `send`. */
export type LoadStep = (send: (path: string, init?: RequestInit) => Promise<Response>, i: number) => Promise<void>;

/** Options of {@link soak}. */
export interface SoakOptions {
  readonly url: string;
  readonly rounds: number;
  /** Requests per round (each step is one or more requests). */
  readonly steps: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  readonly step: LoadStep;
  /** Called after each round with its figures after GC (progress output of the long form). */
  readonly onRound?: (round: number, memory: RoundMemory) => void;
}

/** Memory after a round's full GC, in MB. */
export interface RoundMemory {
  /** The JS heap in use: what a leak of objects grows. */
  readonly heapMb: number;
  /** Buffers and other memory outside the heap that JS objects hold. */
  readonly externalMb: number;
  /** The whole process (heap reserve, code, native allocations): reported, not asserted. */
  readonly rssMb: number;
}

/** Runs the rounds; returns the heap used after a full GC at the end of each round, in MB. */
export async function soak(options: SoakOptions): Promise<number[]> {
  const gc = fullGc();
  // Node's fetch keeps connections alive, as load tools do.
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${options.url}${path}`, { ...init, redirect: "manual" });
  const heaps: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    let next = 0;
    const worker = async () => {
      while (next < options.steps) await options.step(send, next++);
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    // Let timers and socket closes of the round run before measuring.
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc();
    const usage = process.memoryUsage();
    const mb = (bytes: number) => bytes / 1024 / 1024;
    heaps.push(mb(usage.heapUsed));
    options.onRound?.(round, { heapMb: mb(usage.heapUsed), externalMb: mb(usage.external), rssMb: mb(usage.rss) });
  }
  return heaps;
}
