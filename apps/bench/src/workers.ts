// The production server of a built fw-a app, `start --workers 2` against
// `start --workers 1`, on `GET /api/` (the scaffold's JSON view) with the production defaults
// (APP_ENV=production: security headers, session, CSRF guard, one log line per request). The app is
// scaffolded, built and migrated with fw-a's own CLI. The processes may use every core (the point
// is to use both), which the load generator shares (on a 2-core machine the second worker
// competes with it, so the ratio understates what a second core gives a server on its own).
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { runLoad, verify, type Target } from "./load.js";
import type { BenchOptions } from "./plan.js";
import { canPin, cpuSeconds } from "./processes.js";
import { binOf, builtApp, freePort, productionEnv } from "./scaffold.js";
import type { Workload } from "./workloads.js";

/** One load run of `start --workers N`. */
export interface WorkersRecord {
  readonly round: number;
  readonly workers: number;
  readonly rps: number;
  readonly p99: number;
  readonly requests: number;
  /** CPU time of the primary and its workers per request, microseconds. */
  readonly cpuUs: number;
  readonly bad: number;
}

/** The worker counts compared. */
export const WORKER_COUNTS: readonly number[] = Object.freeze([1, 2]);

const FRAMEWORK = "fw-a";

/** `GET /api/` of the scaffolded fw-a app: its JSON view. */
export const WORKERS_WORKLOAD: Workload = Object.freeze({
  name: "text",
  title: "scaffolded fw-a app, GET /api/ (production start)",
  scenario: "basic",
  method: "GET",
  path: "/api/",
  status: 200,
  contentType: /^application\/json/,
  check: (body: string) => {
    try {
      return (JSON.parse(body) as { framework?: unknown }).framework === FRAMEWORK;
    } catch {
      return false;
    }
  },
});

/** The pids of a process and all its descendants (the cluster's workers), from /proc. */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${out[i]}/task`)) {
        const children = readFileSync(`/proc/${out[i]}/task/${task}/children`, "utf8").trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // The process has exited.
    }
  }
  return out;
}

const treeCpu = (pid: number) => processTree(pid).reduce((sum, p) => sum + (cpuSeconds(p) || 0), 0);

/** Starts `fw-a start --workers N` and resolves once it prints that it serves. */
async function startWorkers(
  dir: string,
  workers: number,
): Promise<{ child: ChildProcess; port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  // The runner is pinned to core 1 and a child inherits that: the server gets every core back.
  const cli = [binOf(FRAMEWORK), "start", "--workers", String(workers), "--port", String(port), "--host", "127.0.0.1"];
  const { command, args } = canPin()
    ? { command: "taskset", args: ["-c", `0-${availableParallelism() - 1}`, process.execPath, ...cli] }
    : { command: process.execPath, args: cli };
  const child = spawn(command, args, {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: productionEnv(),
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  };
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`start --workers ${workers} did not serve within 60 s:\n${output.slice(-2000)}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      // The request log lines go to this pipe too; only the start-up part is kept.
      if (output.length < 20_000) output += chunk.toString();
      if (/Serving on http:\/\/\S+ (with \d+ workers|in this process)/.test(output)) done();
    };
    const done = () => {
      clearTimeout(timer);
      child.off("exit", onExit);
      resolve();
    };
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.off("exit", onExit);
      reject(error);
    };
    const onExit = (code: number | null) =>
      fail(new Error(`start --workers ${workers} exited (code ${code}):\n${output.slice(-2000)}`));
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", onExit);
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { child, port, stop };
}

/**
 * Runs the workers comparison: both servers started once (the idle one uses no CPU while the other
 * is loaded), each warmed up once, then per round each worker count in turn, the order alternating.
 */
export async function measureWorkers(options: BenchOptions, log: (line: string) => void): Promise<WorkersRecord[]> {
  const dir = builtApp(FRAMEWORK);
  const out: WorkersRecord[] = [];
  const running: Array<Awaited<ReturnType<typeof startWorkers>> & { workers: number; target: Target }> = [];
  try {
    for (const workers of WORKER_COUNTS) {
      const started = await startWorkers(dir, workers);
      const target: Target = {
        url: `http://127.0.0.1:${started.port}${WORKERS_WORKLOAD.path}`,
        method: "GET",
        headers: {},
      };
      running.push({ ...started, workers, target });
      await verify(target, WORKERS_WORKLOAD, `${FRAMEWORK} start --workers ${workers}`);
      await runLoad(target, { connections: options.connections, duration: options.warmup, loader: options.loader });
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const server of round % 2 ? [...running].reverse() : running) {
        const cpuBefore = treeCpu(server.child.pid!);
        const load = await runLoad(server.target, {
          connections: options.connections,
          duration: options.duration,
          loader: options.loader,
        });
        const cpuUs = ((treeCpu(server.child.pid!) - cpuBefore) / load.requests) * 1e6;
        out.push({
          round,
          workers: server.workers,
          rps: load.rps,
          p99: load.p99,
          requests: load.requests,
          cpuUs,
          bad: load.bad,
        });
        log(
          `  r${round + 1} ${FRAMEWORK} start --workers ${server.workers}: ${load.rps.toFixed(0).padStart(7)} req/s  p99 ${load.p99.toFixed(1)} ms  CPU ${cpuUs.toFixed(0)} us/req${load.bad ? `  (${load.bad} bad answers!)` : ""}`,
        );
      }
    }
  } finally {
    for (const server of running) await server.stop();
  }
  return out;
}
