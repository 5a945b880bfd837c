import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { E_BENCH_RUN } from "./errors.js";
import type { Workload } from "./workloads.js";

/** One request to send: where, how, with which headers and body. */
export interface Target {
  readonly url: string;
  readonly method: "GET" | "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What one load run measured. */
export interface LoadResult {
  /** Requests per second over the run (2xx only are counted as valid; see `bad`). */
  readonly rps: number;
  /** 99th percentile latency, milliseconds. */
  readonly p99: number;
  /** Mean latency, milliseconds. */
  readonly meanLatency: number;
  /** Non-2xx answers plus connection errors and timeouts (a valid run has none). */
  readonly bad: number;
  /** Requests completed in the run. */
  readonly requests: number;
}

/** The load generators the bench can drive. */
export type Loader = "wrk" | "autocannon";

/** Load options. */
export interface LoadOptions {
  readonly connections: number;
  /** Seconds (wrk rounds up to whole seconds). */
  readonly duration: number;
  readonly loader: Loader;
}

/** True when `wrk` is on PATH (it loads with less CPU than autocannon, so the server is what is measured). */
export function hasWrk(): boolean {
  return spawnSync("wrk", ["--version"], { stdio: "ignore" }).error === undefined;
}

/** Loads a target with wrk (a child process) or autocannon (in this process); the runner sits on the other core. */
export function runLoad(target: Target, options: LoadOptions): Promise<LoadResult> {
  return options.loader === "wrk" ? runWrk(target, options) : runAutocannon(target, options);
}

const TIME_UNITS: Readonly<Record<string, number>> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const milliseconds = (value: string | undefined, unit: string | undefined): number =>
  value && unit ? Number(value) * (TIME_UNITS[unit] ?? Number.NaN) : Number.NaN;

/** Reads wrk's `--latency` report. */
export function parseWrk(output: string): LoadResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(output);
  const mean = /Latency\s+([\d.]+)(us|ms|s|m)/.exec(output);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = socket ? Number(socket[1]) + Number(socket[3]) + Number(socket[4]) : 0;
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN);
  if (!Number.isFinite(rps)) throw new E_BENCH_RUN("load generator", `wrk gave no result:\n${output}`);
  return {
    rps,
    p99: milliseconds(p99?.[1], p99?.[2]),
    meanLatency: milliseconds(mean?.[1], mean?.[2]),
    bad: non2xx + errors,
    requests,
  };
}

async function runWrk(target: Target, options: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "bench-wrk-"));
  try {
    const script = join(dir, "request.lua");
    writeFileSync(
      script,
      `wrk.method = ${JSON.stringify(target.method)}\n${target.body !== undefined ? `wrk.body = ${JSON.stringify(target.body)}\n` : ""}`,
    );
    const headers = Object.entries(target.headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
    const seconds = Math.max(1, Math.ceil(options.duration));
    const args = [
      "-t1",
      `-c${options.connections}`,
      `-d${seconds}s`,
      "--timeout",
      "10s",
      "--latency",
      "-s",
      script,
      ...headers,
      target.url,
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.once("error", reject);
      child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${out}`))));
    });
    return parseWrk(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runAutocannon(target: Target, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: target.url,
    method: target.method,
    headers: { ...target.headers },
    ...(target.body !== undefined ? { body: target.body } : {}),
    connections: options.connections,
    pipelining: 1,
    duration: options.duration,
  });
  return {
    rps: result.requests.total / Math.max(result.duration, 0.001),
    p99: result.latency.p99,
    meanLatency: result.latency.average,
    bad: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
  };
}

/** Sends the request once and throws unless the answer is the one the workload expects. */
export async function verify(target: Target, workload: Workload, server: string): Promise<void> {
  const response = await fetch(target.url, {
    method: target.method,
    headers: target.headers,
    ...(target.body !== undefined ? { body: target.body } : {}),
    redirect: "manual",
  });
  const body = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const problems: string[] = [];
  if (response.status !== workload.status) problems.push(`status ${response.status}, expected ${workload.status}`);
  if (!workload.contentType.test(type)) problems.push(`content-type "${type}", expected ${workload.contentType}`);
  if (!workload.check(body)) problems.push(`unexpected body: ${body.slice(0, 200)}`);
  if (problems.length > 0)
    throw new E_BENCH_RUN(
      server,
      `answered ${target.method} ${target.url} wrongly (${workload.name}): ${problems.join("; ")}`,
    );
}

/** The `Cookie` header that replays every cookie a response set. */
export function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!.trim())
    .filter((pair) => pair.length > 0)
    .join("; ");
}
