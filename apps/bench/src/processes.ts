import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// Run from the TypeScript sources (the bench's tests), the server process loads them through tsx too.
const FROM_SOURCE = import.meta.url.endsWith(".ts");
const SERVER_MAIN = fileURLToPath(new URL(FROM_SOURCE ? "./server-main.ts" : "./server-main.js", import.meta.url));
const SOURCE_ARGS = FROM_SOURCE ? ["--conditions=source", "--import", "tsx"] : [];

/** A server process started by the runner. */
export interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  /** Start-up steps the server measured itself (ms). */
  readonly timings: Readonly<Record<string, number>>;
  /** `performance.now()` when the process was spawned. */
  readonly spawnedAt: number;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits for the exit. */
  stop(): Promise<void>;
}

/** True when `taskset` can pin processes (Linux with util-linux). */
export function canPin(): boolean {
  return spawnSync("taskset", ["-c", "0", "true"], { stdio: "ignore" }).status === 0;
}

/** The command that runs `node args` pinned to `core` (or unpinned when taskset is missing). */
export function pinned(core: number | undefined, nodeArgs: readonly string[]): { command: string; args: string[] } {
  if (core === undefined) return { command: process.execPath, args: [...nodeArgs] };
  return { command: "taskset", args: ["-c", String(core), process.execPath, ...nodeArgs] };
}

function waitForLine(child: ChildProcess, prefix: string, what: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(
      () => finish(new Error(`${what} did not start within ${timeoutMs} ms.\n${err}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith(prefix));
      if (line) finish(undefined, line.slice(prefix.length));
    };
    const onErr = (chunk: Buffer) => {
      err += chunk.toString();
    };
    const onExit = (code: number | null) =>
      finish(new Error(`${what} exited (code ${code}) before it was ready.\n${err}`));
    const finish = (error?: Error, value?: string) => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(value!);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onErr);
    child.once("exit", onExit);
  });
}

/** Starts `server-main` for a server and scenario, pinned to `core`, and waits until it listens. */
export async function startServer(options: {
  server: string;
  scenario: string;
  core: number | undefined;
  nodeArgs?: readonly string[];
  /** Extra environment (BENCH_PROFILE). */
  env?: Readonly<Record<string, string>>;
  /** A command that runs Node (`valgrind --tool=callgrind`); the process is then not pinned. */
  prefix?: readonly string[];
  /** How long the server may take to listen (default 60 s). */
  readyTimeoutMs?: number;
}): Promise<ServerProcess> {
  const nodeArgs = [...SOURCE_ARGS, ...(options.nodeArgs ?? []), SERVER_MAIN, options.server, options.scenario, "0"];
  const { command, args } = options.prefix
    ? { command: options.prefix[0]!, args: [...options.prefix.slice(1), process.execPath, ...nodeArgs] }
    : pinned(options.core, nodeArgs);
  const spawnedAt = performance.now();
  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production", ...options.env },
  });
  const ready = JSON.parse(
    await waitForLine(child, "READY ", `${options.server} (${options.scenario})`, options.readyTimeoutMs ?? 60_000),
  ) as {
    port: number;
    timings: Record<string, number>;
    pid: number;
  };
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    pid: ready.pid,
    port: ready.port,
    timings: ready.timings,
    spawnedAt,
    async stop() {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Route-table build time of an N-route app, measured in a fresh process pinned to `core`. */
export async function measureTableInProcess(server: string, routes: number, core: number | undefined): Promise<number> {
  const { command, args } = pinned(core, [...SOURCE_ARGS, SERVER_MAIN, "--table", server, String(routes)]);
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  const line = await waitForLine(child, "TABLE ", `table build of ${server} (${routes} routes)`, 120_000);
  await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
  return (JSON.parse(line) as { ms: number }).ms;
}

/** Resident set size of a process in MiB (from /proc), or NaN where /proc is missing. */
export function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system, all threads) a process has used so far, in seconds (NaN without /proc). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the fields start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** Kernel clock ticks per second (`getconf CLK_TCK`; 100 on Linux builds in practice). */
const CLOCK_TICKS = (() => {
  const result = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  const value = Number(result.stdout?.trim());
  return Number.isFinite(value) && value > 0 ? value : 100;
})();
