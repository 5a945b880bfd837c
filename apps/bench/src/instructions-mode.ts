// `pnpm bench --instructions`: the rows of `--cpu` counted in machine instructions instead of CPU
// time, which other work on the machine cannot move. Each server runs under Valgrind's callgrind
// with V8's `--predictable` (one thread; garbage collection and compilation at the same points in
// every run), loaded by a keep-alive client outside it with a fixed number of requests. V8 goes on
// compiling hot code for about twenty thousand requests (each compilation counted where it falls),
// so after a warm-up the requests are counted in windows, callgrind's counters zeroed before and
// dumped after each; a row's figure is its least window, the steady state, with the median beside.
// Whatever else the machine does, a row's least window moves by 2% at most from run to run (how many
// requests one event-loop turn reads depends on when they arrive), a start count by a few parts in a
// thousand. The start-up rows count the instructions from the process's first to its first
// 200. Counted: the server process's own instructions in user space, all threads. Not counted: the
// kernel's share of a request (the socket's reads and writes, about the same for every server), so
// ratios here run above the CPU mode's, where that share is in both sides of a ratio.
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, get } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { partCosts, selectedRows, startRowsOf, targetOf, type CpuRow } from "./cpu-mode.js";
import { E_BENCH_RUN } from "./errors.js";
import { parseFlags } from "./flags.js";
import { verify } from "./load.js";
import { startServer } from "./processes.js";
import { median } from "./report.js";

/** The options of a run. */
export type InstructionsOptions = ReturnType<typeof parseInstructionsOptions>;

/** What one row counted. */
interface Count {
  /** Instructions per request in each counted window. */
  readonly windows: readonly number[];
  /** Instructions from the process's start to its first 200 (start-up rows only). */
  readonly toFirst200?: number;
}

/** The options of `--instructions`, checked: an unknown or malformed one is an error that names the known ones. */
export function parseInstructionsOptions(argv: readonly string[]) {
  const flags = parseFlags(
    argv,
    ["requests", "windows", "warmup", "connections", "jobs", "only"],
    ["parts", "no-start"],
  );
  return {
    requests: flags.number("requests", 2000, true),
    windows: flags.number("windows", 4, true),
    warmup: flags.number("warmup", 20000, true),
    connections: flags.number("connections", 8, true),
    jobs: flags.number("jobs", Math.max(1, cpus().length), true),
    only: flags.get("only")?.split(",").filter(Boolean),
    parts: flags.has("parts"),
    start: !flags.has("no-start"),
  };
}

/** Sends `count` GET requests to `url` over `connections` keep-alive connections; throws on a non-2xx answer. */
export async function fixedLoad(url: string, count: number, connections: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const one = () =>
    new Promise<number>((resolve, reject) => {
      get(url, { agent }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      }).on("error", reject);
    });
  let left = count;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (left-- > 0) {
          const status = await one();
          if (status < 200 || status > 299) throw new E_BENCH_RUN(url, `answered ${status} under load`);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
}

/** The instruction total of a callgrind dump file. */
export function callgrindTotal(file: string): number {
  const match = /^(?:totals|summary):\s+(\d+)/m.exec(readFileSync(file, "utf8"));
  if (!match) throw new E_BENCH_RUN(file, "holds no instruction total; is it a callgrind dump?");
  return Number(match[1]);
}

/** Zeroes (`-z`) or dumps (`-d`) the counters of the callgrind process `pid`; resolves once it has. */
const control = (command: "-z" | "-d", pid: number) =>
  new Promise<void>((resolve, reject) =>
    execFile("callgrind_control", [command, String(pid)], (error) =>
      error ? reject(new E_BENCH_RUN("callgrind_control", `${command} ${pid} failed: ${error.message}`)) : resolve(),
    ),
  );

/**
 * Counts one row in one process: with `startUp`, the instructions from its start to its first 200
 * (the first dump), then the windows of requests after the warm-up.
 */
async function countRow(row: CpuRow, o: InstructionsOptions, dir: string, startUp: boolean): Promise<Count> {
  const out = join(dir, row.key);
  const proc = await startServer({
    server: row.server,
    scenario: row.scenario,
    core: undefined,
    prefix: ["valgrind", "--tool=callgrind", `--callgrind-out-file=${out}.%p`],
    nodeArgs: ["--predictable"],
    env: { ...row.env },
    readyTimeoutMs: 600_000,
  });
  try {
    const target = targetOf(row, proc.port);
    await verify(target, row.workload, row.server);
    let dump = 0;
    const counted = async () => {
      await control("-d", proc.pid);
      return callgrindTotal(`${out}.${proc.pid}.${++dump}`);
    };
    const toFirst200 = startUp ? await counted() : undefined;
    await fixedLoad(target.url, o.warmup, o.connections);
    const windows: number[] = [];
    for (let i = 0; i < o.windows; i++) {
      await control("-z", proc.pid);
      await fixedLoad(target.url, o.requests, o.connections);
      windows.push((await counted()) / o.requests);
    }
    return toFirst200 === undefined ? { windows } : { windows, toFirst200 };
  } finally {
    await proc.stop();
  }
}

/** Runs `tasks` with at most `jobs` at once (counts do not depend on what else runs). */
async function pool<T>(tasks: ReadonlyArray<() => Promise<T>>, jobs: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

/**
 * Counts `rows` (instructions per request in each window) and, for those of `startRows` (a subset),
 * the instructions to the first 200; `o.jobs` servers at once, under callgrind, their dumps in a
 * folder removed afterwards.
 */
export async function countRows(
  rows: readonly CpuRow[],
  startRows: readonly CpuRow[],
  o: InstructionsOptions,
): Promise<{ windows: Map<string, number[]>; starts: Map<string, number> }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-instructions-"));
  try {
    const starting = new Set(startRows.map((row) => row.key));
    const counts = await pool(
      rows.map((row) => async () => {
        const count = await countRow(row, o, dir, starting.has(row.key));
        console.log(`  ${row.key}: ${count.windows.map(Math.round).join(", ")} instructions per request`);
        return count;
      }),
      o.jobs,
    );
    return {
      windows: new Map(rows.map((row, i) => [row.key, [...counts[i]!.windows]])),
      starts: new Map(
        rows.flatMap((row, i) => (counts[i]!.toFirst200 === undefined ? [] : [[row.key, counts[i]!.toFirst200!]])),
      ),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : "-");
const plus = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%` : "");
const thousands = (x: number) => `${(x / 1000).toFixed(1)}k`;

/** The tables of a run. */
function tables(
  rows: readonly CpuRow[],
  counts: ReadonlyMap<string, number>,
  medians: ReadonlyMap<string, number>,
  starts: ReadonlyMap<string, number>,
  windows: number,
) {
  const koa = counts.get("koa")!;
  const koaProd = counts.get("koa-prod")!;
  const lines = [
    `| configuration | instructions per request (least of ${windows} windows) | vs bare Koa | vs Koa + same middleware | over production defaults | median window |`,
    "|---|--:|--:|--:|--:|--:|",
  ];
  for (const row of rows) {
    const value = counts.get(row.key)!;
    const over = row.addsTo && counts.has(row.addsTo) ? plus(value / counts.get(row.addsTo)! - 1) : "";
    lines.push(
      `| ${row.label} | ${thousands(value)} | ${ratio(value / koa)} | ${ratio(value / koaProd)} | ${over} | ${thousands(medians.get(row.key)!)} |`,
    );
  }
  const costs = partCosts(rows, counts);
  if (costs.length > 0) {
    lines.push(
      "",
      "| part of the production defaults | instructions per request | of bare Koa's request |",
      "|---|--:|--:|",
    );
    for (const { label, cost } of costs)
      lines.push(`| ${label} | ${thousands(cost)} | ${((cost / koa) * 100).toFixed(0)}% |`);
  }
  if (starts.size > 0) {
    const koaStart = starts.get("koa")!;
    lines.push("", "| start (process start to the first 200) | instructions | vs bare Koa script |", "|---|--:|--:|");
    for (const [key, value] of starts)
      lines.push(
        `| ${rows.find((r) => r.key === key)!.label} | ${(value / 1e6).toFixed(0)}M | ${ratio(value / koaStart)} |`,
      );
  }
  return lines;
}

/** Runs the instructions mode and prints its tables (also written to results/instructions.json). */
export async function runInstructionsMode(argv: readonly string[]): Promise<void> {
  const o = parseInstructionsOptions(argv);
  if (spawnSync("valgrind", ["--version"]).status !== 0)
    throw new E_BENCH_RUN("valgrind", "is not installed; install it (Debian: apt-get install valgrind) and run again");
  const rows = selectedRows(o.parts, o.only);
  const startRows = o.start ? startRowsOf(rows) : [];
  console.log(
    `bench --instructions: ${rows.length} rows (${o.warmup} requests of warm-up, then ${o.windows} windows of ${o.requests}, ${o.connections} connections) and ${startRows.length} starts, ${o.jobs} at once, under callgrind`,
  );
  const load0 = loadavg();
  const { windows, starts } = await countRows(rows, startRows, o);
  const counts = new Map(rows.map((row) => [row.key, Math.min(...windows.get(row.key)!)]));
  const medians = new Map(rows.map((row) => [row.key, median(windows.get(row.key)!)]));
  const lines = tables(rows, counts, medians, starts, o.windows);
  console.log(`\n${lines.join("\n")}\n`);
  const results = fileURLToPath(new URL("../results/", import.meta.url));
  mkdirSync(results, { recursive: true });
  const raw = { windows: Object.fromEntries(windows), starts: Object.fromEntries(starts) };
  writeFileSync(
    `${results}instructions.json`,
    `${JSON.stringify({ options: o, loadavg: [load0, loadavg()], ...raw, table: lines }, null, 2)}\n`,
  );
  console.log(`Results: ${results}instructions.json`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runInstructionsMode(process.argv.slice(2));
