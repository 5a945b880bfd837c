import cluster, { type Worker } from "node:cluster";
import { FrameworkError } from "routing-kernel";
import { CLUSTER_COUNTERS_ENV, PRIMARY_PARTS_ENV } from "@fwkit/battery-kit/host";
import { serveClusterCounters } from "./cluster-counters.js";
import { servePrimaryParts } from "./primary-parts.js";
import { E_WORKERS_FAILED } from "../errors.js";
import { handOver, watchHandoffs } from "./handoffs.js";
import { EXIT_MESSAGE, SHUTDOWN_MESSAGE, workerMessage } from "./messages.js";

/** Options of {@link runPrimary}. */
export interface PrimaryOptions {
  /** How many workers to keep running. */
  readonly workers: number;
  /** The worker program (worker-main) and what it is told (FW_START_OPTIONS). */
  readonly exec: string;
  readonly execArgv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Where its lines go (start, restarts, rolling restarts, failures): the JSON logger in production. */
  readonly log: PrimaryLog;
  /** Consecutive boot failures of replacement workers after which the primary gives up (default 5). */
  readonly maxBootFailures?: number;
  /**
   * Aborted by a SIGTERM/SIGINT that comes while the first workers boot: they are stopped as at any
   * other time (a booting worker finishes its boot, then drains) and `runPrimary` resolves once
   * they have exited, its `stop()` then resolving at once.
   */
  readonly stopWhileStarting?: AbortSignal;
}

/** The primary's log lines: a message and the fields that name what happened (a pid, a signal...). */
export interface PrimaryLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The running primary: its workers' pids, and the stops signals lead to (exposed for tests). */
export interface Primary {
  /** Pids of the workers currently serving. */
  pids(): number[];
  /**
   * SIGHUP: replaces the workers one at a time, each new one answering before the old one stops. A
   * call while one runs is not dropped: one more follows it (further calls meanwhile join that one).
   */
  rollingRestart(): Promise<void>;
  /** SIGTERM/SIGINT: every worker drains and stops; resolves with the exit code to use. */
  stop(): Promise<number>;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  /** Required readiness checks that failed when it started (name: reason). */
  unready?: Readonly<Record<string, string>>;
  retiring: boolean;
  readonly bornAt: number;
}

const BACKOFF_START_MS = 100;
const BACKOFF_MAX_MS = 10_000;
// A worker that lived this long before dying counts as a crash, not a crash loop: back-off resets.
const STABLE_MS = 30_000;

/**
 * Runs the node:cluster primary: forks `workers` workers and resolves once all of them answer. A
 * worker that fails before answering at start stops everything with its error (port in use,
 * database unreachable...). Afterwards a worker that dies is replaced with back-off (100 ms doubling
 * to 10 s); replacements that fail at boot `maxBootFailures` times in a row stop the primary with a
 * non-zero exit. SIGHUP rolls, SIGTERM/SIGINT drain and exit 0.
 */
export async function runPrimary(options: PrimaryOptions): Promise<Primary> {
  const maxBootFailures = options.maxBootFailures ?? 5;
  cluster.setupPrimary({ exec: options.exec, execArgv: [...options.execArgv] });
  const slots = new Map<number, Slot>();
  let stopping = false;
  let graceMs = 10_000;
  let bootFailures = 0;
  let backoffMs = BACKOFF_START_MS;
  let rolling: Promise<void> | undefined;

  const fail = (reason: string) => {
    options.log.error(`E_WORKERS_FAILED: ${reason}`, { code: "E_WORKERS_FAILED" });
    void stop().then(() => process.exit(1));
  };

  /** Forks one worker; resolves when it answers, rejects with its error if it dies first. */
  const fork = (): Promise<Slot> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ ...options.env, ...CLUSTER_COUNTERS_ENV, ...PRIMARY_PARTS_ENV });
      // The login and rate-limit counters of the node live here, shared by its workers.
      serveClusterCounters(worker);
      // What batteries run once per node (the metrics port summing the workers) runs here.
      servePrimaryParts(worker);
      const slot: Slot = { worker, ready: false, retiring: false, bornAt: Date.now() };
      // Connections handed to it that it never took (it died first) go to a live worker.
      watchHandoffs(worker, (handles) => handToLiveWorkers(handles, worker, slots, options.log));
      slots.set(worker.id, slot);
      let failure: string | undefined;
      let failureCode: string | undefined;
      worker.on("message", (raw: unknown) => {
        const message = workerMessage(raw);
        if (message?.fw === "ready") {
          slot.ready = true;
          if (message.unready) slot.unready = message.unready;
          graceMs = message.graceMs;
          resolve(slot);
        } else if (message?.fw === "failed") {
          failure = message.message;
          failureCode = message.code;
        } else if (message?.fw === "drained") {
          // Its server's close reached this process before this message (one channel, in order):
          // the round-robin hands it nothing more, and what it was handed is answered before EXIT.
          if (worker.isConnected()) worker.send(EXIT_MESSAGE);
        }
      });
      worker.once("exit", (code, signal) => {
        slots.delete(worker.id);
        if (!slot.ready) {
          const reason = failure ?? `worker ${worker.process.pid} exited with ${signal ?? code} before answering`;
          reject(Object.assign(new Error(reason), { code: failureCode }));
          return;
        }
        if (stopping || slot.retiring) return;
        // A serving worker died: replace it, backing off if workers keep dying young.
        const lived = Date.now() - slot.bornAt;
        if (lived > STABLE_MS) backoffMs = BACKOFF_START_MS;
        options.log.warn(
          `worker ${worker.process.pid} died (${signal ?? `exit ${code}`}); replacing it in ${backoffMs} ms`,
          {
            event: "worker-died",
            worker: worker.process.pid,
            signal: signal ?? undefined,
            exitCode: code ?? undefined,
            replaceInMs: backoffMs,
          },
        );
        scheduleReplacement();
      });
    });

  const scheduleReplacement = () => {
    const delay = backoffMs;
    backoffMs = Math.min(BACKOFF_MAX_MS, backoffMs * 2);
    setTimeout(() => {
      if (stopping) return;
      fork().then(
        (slot) => {
          bootFailures = 0;
          options.log.info(`worker ${slot.worker.process.pid} replaced the one that died`, {
            event: "worker-replaced",
            worker: slot.worker.process.pid,
          });
        },
        (error: Error) => {
          bootFailures++;
          options.log.error(
            `a replacement worker failed at boot (${bootFailures}/${maxBootFailures}): ${error.message}`,
            { event: "worker-boot-failed", failures: bootFailures },
          );
          if (bootFailures >= maxBootFailures)
            fail(`workers crash at boot over and over; the last error: ${error.message}`);
          else scheduleReplacement();
        },
      );
    }, delay).unref();
  };

  const retire = (slot: Slot): Promise<void> => retireWorker(slot, graceMs);

  const restartOnce = async (): Promise<void> => {
    const old = [...slots.values()].filter((slot) => !slot.retiring);
    options.log.info(`rolling restart of ${old.length} worker(s)`, { event: "rolling-restart", workers: old.length });
    for (const slot of old) {
      if (stopping) break;
      let fresh: Slot;
      try {
        fresh = await fork();
      } catch (error) {
        // The new code does not start: keep the old workers serving and say why.
        options.log.error(`rolling restart stopped, the old workers keep serving: ${(error as Error).message}`, {
          event: "rolling-restart-failed",
        });
        return;
      }
      if (fresh.unready) {
        // It listens but its /readyz says 503 (pending migrations, a store down): replacing the
        // rest would leave the node with no ready worker. The old ones keep serving.
        const failing = Object.entries(fresh.unready)
          .map(([name, reason]) => `${name}: ${reason}`)
          .join("; ");
        options.log.error(
          `rolling restart stopped, the old workers keep serving: new worker ${fresh.worker.process.pid} is not ready (${failing}); fix it and send SIGHUP again`,
          { event: "rolling-restart-failed", worker: fresh.worker.process.pid, unready: fresh.unready },
        );
        await retire(fresh);
        return;
      }
      options.log.info(`worker ${fresh.worker.process.pid} answers; stopping worker ${slot.worker.process.pid}`, {
        event: "worker-rolled",
        worker: fresh.worker.process.pid,
        stopping: slot.worker.process.pid,
      });
      await retire(slot);
    }
    options.log.info("rolling restart done", { event: "rolling-restart-done" });
  };

  // A SIGHUP that comes while a restart runs was sent for code newer than what that restart may
  // have loaded already (a deploy, or a fix after a failed restart): one more restart follows, and
  // any further signals meanwhile join it.
  let queued: Promise<void> | undefined;
  const rollingRestart = (): Promise<void> => {
    if (!rolling)
      return (rolling = restartOnce().finally(() => {
        rolling = undefined;
      }));
    if (!queued) {
      options.log.info("SIGHUP during a rolling restart: another rolling restart follows once this one ends", {
        event: "rolling-restart-queued",
      });
      const next = () => {
        queued = undefined;
        return stopping ? undefined : rollingRestart();
      };
      queued = rolling.then(next, next);
    }
    return queued;
  };

  let stopped: Promise<number> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      stopping = true;
      await Promise.all([...slots.values()].map(retire));
      return 0;
    })());

  // First generation: all answer, or the first error stops everything.
  const starting = Promise.allSettled(Array.from({ length: options.workers }, () => fork()));
  const early = options.stopWhileStarting;
  const stopEarly = () => void stop();
  early?.addEventListener("abort", stopEarly, { once: true });
  const first = await starting;
  early?.removeEventListener("abort", stopEarly);
  if (early?.aborted) await stop();
  const failed = first.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed && !early?.aborted) {
    await stop();
    throw firstGenerationError(failed.reason as Error & { code?: string });
  }
  return {
    pids: () =>
      [...slots.values()].filter((slot) => slot.ready && !slot.retiring).map((slot) => slot.worker.process.pid!),
    rollingRestart,
    stop,
  };
}

/** The error `start` stops with when a worker of the first generation failed to answer. */
function firstGenerationError(error: Error & { code?: string }): Error {
  // The worker's message already reads "E_PORT_IN_USE: 127.0.0.1:5000 is already in use...".
  if (error.code === "E_PORT_IN_USE")
    return new FrameworkError(error.code, error.message.replace(/^E_PORT_IN_USE: /, ""));
  return new E_WORKERS_FAILED(error.message);
}

/** Connections a dead worker was handed but never took go to the live workers, round-robin (closed when none is left). */
function handToLiveWorkers(
  handles: readonly Parameters<typeof handOver>[0][],
  dead: Worker,
  slots: ReadonlyMap<number, Slot>,
  log: PrimaryOptions["log"],
): void {
  const live = [...slots.values()].filter(
    (other) => other.ready && !other.retiring && other.worker !== dead && other.worker.isConnected(),
  );
  log.warn(
    `worker ${dead.process.pid} ended holding ${handles.length} connection(s) it never took; ${live.length > 0 ? "handed to another worker" : "closed: no live worker"}`,
    {
      event: "connections-handed-over",
      worker: dead.process.pid,
      connections: handles.length,
    },
  );
  handles.forEach((handle, index) => {
    handOver(handle, live[index % Math.max(1, live.length)]?.worker);
  });
}

/**
 * Tells a worker to drain and waits for it to exit (killing it once the grace period is over).
 * The worker exits on EXIT_MESSAGE, once no connection handed to it can be left behind.
 */
function retireWorker(slot: Slot, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    slot.retiring = true;
    const { worker } = slot;
    if (worker.isDead()) return resolve();
    const kill = setTimeout(() => worker.process.kill("SIGKILL"), graceMs + 5000);
    worker.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    // A worker still booting may not listen for messages yet: a signal cannot be lost.
    if (slot.ready && worker.isConnected()) worker.send(SHUTDOWN_MESSAGE);
    else worker.process.kill("SIGTERM");
  });
}
