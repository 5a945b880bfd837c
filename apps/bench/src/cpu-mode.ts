// `pnpm bench --cpu [--rounds=N] [--window=S] [--warmup=S] [--connections=N] [--starts=N] [--only=fw-a] [--start-only]`: CPU time per
// request of fw-a and fw-b against bare Koa (no middleware) and Koa with the same middleware, each
// server pinned to core 0 with the load (wrk, else autocannon) on core 1, and the server's CPU
// ticks (/proc/<pid>/stat, all threads) over a fixed window divided by the requests it answered.
// Every row is a ratio from the same run, rounds interleaved; a machine busy with other work delays
// a server and adds some CPU time to it (never takes any away), so each row's figure is its least
// disturbed round, and these figures hold where requests per second do not.
// Ends with start-up: a compiled app's process spawn to its first 200 against a bare Koa script's,
// and the `start` command of a scaffolded app built with the framework's CLI (start-command.ts),
// pinned to core 0 and then on both cores, as `npm start` runs.
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { E_BENCH_OPTION } from "./errors.js";
import { parseFlags } from "./flags.js";
import { hasWrk, runLoad, verify, type Loader, type Target } from "./load.js";
import { cpuSeconds, startServer, type ServerProcess } from "./processes.js";
import { median } from "./report.js";
import { PRODUCTION_PARTS, type ProductionPart } from "./servers/framework.js";
import { pathFor, serverInfo, type ServerName } from "./servers/registry.js";
import { startCommandToFirst200 } from "./start-command.js";
import { WORKLOADS, type Scenario, type Workload } from "./workloads.js";

/** One measured configuration: a server process and the request it is loaded with. */
export interface CpuRow {
  readonly key: string;
  readonly label: string;
  readonly server: ServerName;
  readonly scenario: Scenario;
  readonly workload: Workload;
  /** Extra environment of the server process. */
  readonly env?: Readonly<Record<string, string>>;
  /** The row this one adds to (the framework's production row for metrics and tracing). */
  readonly addsTo?: string;
  /** The part of the production defaults this row leaves out (`--parts`). */
  readonly without?: ProductionPart;
}

const workload = (name: string) => WORKLOADS.find((w) => w.name === name)!;
const TEXT = workload("text");
const PROD = workload("prod-text");

/** The rows of the CPU mode, baselines first; with `parts`, the production rows without each part too. */
export function cpuRows(parts = false): CpuRow[] {
  const rows: CpuRow[] = [
    { key: "koa", label: "bare Koa, no middleware", server: "bare-koa", scenario: "basic", workload: TEXT },
    {
      key: "koa-prod",
      label: "Koa + the same middleware (helmet, koa-session, CSRF check, pino line)",
      server: "bare-koa",
      scenario: "production",
      workload: PROD,
    },
  ];
  for (const fw of ["fw-a", "fw-b"] as const) {
    rows.push(
      { key: `${fw}-off`, label: `${fw}, batteries off`, server: fw, scenario: "basic", workload: TEXT },
      { key: `${fw}-prod`, label: `${fw}, production defaults`, server: fw, scenario: "production", workload: PROD },
      {
        key: `${fw}-metrics`,
        label: `${fw}, production + metrics`,
        server: fw,
        scenario: "production-metrics",
        workload: PROD,
        addsTo: `${fw}-prod`,
      },
      {
        key: `${fw}-traced`,
        label: `${fw}, production + tracing (every request sampled, not exported)`,
        server: fw,
        scenario: "production-tracing",
        workload: PROD,
        addsTo: `${fw}-prod`,
      },
      {
        key: `${fw}-traced-views`,
        label: `${fw}, production + tracing with a span per view too (tracing.viewSpans)`,
        server: fw,
        scenario: "production-tracing",
        workload: PROD,
        env: { BENCH_VIEW_SPANS: "1" },
        addsTo: `${fw}-prod`,
      },
      {
        key: `${fw}-dropped`,
        label: `${fw}, production + tracing, sampler drops (OTEL_TRACES_SAMPLER=always_off)`,
        server: fw,
        scenario: "production-tracing",
        workload: PROD,
        env: { OTEL_TRACES_SAMPLER: "always_off" },
        addsTo: `${fw}-prod`,
      },
    );
    if (parts)
      for (const [part, { label }] of Object.entries(PRODUCTION_PARTS) as Array<[ProductionPart, { label: string }]>)
        rows.push({
          key: `${fw}-prod-without-${part}`,
          label: `${fw}, production defaults without ${label}`,
          server: fw,
          scenario: "production",
          workload: PROD,
          env: { BENCH_WITHOUT: part },
          without: part,
        });
  }
  return rows;
}

/** The request a row's server is loaded with, on `port`. */
export const targetOf = (row: CpuRow, port: number): Target => ({
  url: `http://127.0.0.1:${port}${pathFor(serverInfo(row.server), row.workload.path)}`,
  method: "GET",
  headers: {},
});

/** One window of load: CPU microseconds per request of the server. */
async function measure(row: CpuRow, proc: ServerProcess, seconds: number, connections: number, loader: Loader) {
  const before = cpuSeconds(proc.pid);
  const load = await runLoad(targetOf(row, proc.port), { connections, duration: seconds, loader });
  const cpu = cpuSeconds(proc.pid) - before;
  if (load.bad > 0) throw new E_BENCH_OPTION(`${row.label}: ${load.bad} bad answers under load.`);
  return { cpuUs: (cpu / load.requests) * 1e6, rps: load.rps, requests: load.requests };
}

/** Spawn to the first 200 of `row`'s route, in a fresh process pinned to `core` (ms; both cores when undefined). */
async function startToFirst200(row: CpuRow, core: number | undefined): Promise<number> {
  const proc = await startServer({ server: row.server, scenario: row.scenario, core });
  try {
    const target = targetOf(row, proc.port);
    await verify(target, row.workload, row.server);
    return performance.now() - proc.spawnedAt;
  } finally {
    await proc.stop();
  }
}

function parse(argv: readonly string[]) {
  // `--start-only`: the start-up rows alone (no load, no CPU windows); `--parts`: what each part of
  // the production defaults costs, from a row without it.
  const flags = parseFlags(
    argv,
    ["rounds", "window", "warmup", "connections", "starts", "loader", "only"],
    ["start-only", "parts"],
  );
  const loader = (flags.get("loader") ?? (hasWrk() ? "wrk" : "autocannon")) as Loader;
  return {
    rounds: flags.number("rounds", 5),
    window: flags.number("window", 3),
    warmup: flags.number("warmup", 3),
    connections: flags.number("connections", 50),
    starts: flags.number("starts", 5),
    loader,
    // `--only=fw-a` or `--only=fw-a-traced,fw-a-dropped`: rows whose key starts with one of these (the baselines always run).
    only: flags.get("only")?.split(",").filter(Boolean),
    startOnly: flags.has("start-only"),
    parts: flags.has("parts"),
  };
}

const pct = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : "-");
const plus = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${(x * 100).toFixed(0)}%` : "");

/** The CPU-per-request rounds of `rows`: their samples, and their table appended to `lines`. */
async function cpuRounds(
  rows: readonly CpuRow[],
  o: ReturnType<typeof parse>,
  samples: Map<string, number[]>,
  rps: Map<string, number[]>,
  lines: string[],
): Promise<void> {
  // One process per row for the whole run, idle while the others are loaded.
  const procs = new Map<string, ServerProcess>();
  try {
    for (const row of rows) {
      const proc = await startServer({ server: row.server, scenario: row.scenario, core: 0, env: { ...row.env } });
      procs.set(row.key, proc);
      await verify(targetOf(row, proc.port), row.workload, row.server);
      await runLoad(targetOf(row, proc.port), { connections: o.connections, duration: o.warmup, loader: o.loader });
    }
    for (let round = 0; round < o.rounds; round++) {
      const shift = Math.floor((round * rows.length) / o.rounds);
      for (const row of [...rows.slice(shift), ...rows.slice(0, shift)]) {
        const m = await measure(row, procs.get(row.key)!, o.window, o.connections, o.loader);
        samples.get(row.key)!.push(m.cpuUs);
        rps.get(row.key)!.push(m.rps);
      }
      console.log(`  round ${round + 1}/${o.rounds} done`);
    }
  } finally {
    for (const proc of procs.values()) await proc.stop();
  }
  // Other work on the machine only ever adds CPU time to a window (cache and frequency effects, wake-ups),
  // never removes it: the least disturbed window, the minimum over the rounds, is the figure and the
  // ratios are taken between minima; the median shows how disturbed the run was.
  const us = new Map(rows.map((r) => [r.key, Math.min(...samples.get(r.key)!)]));
  const koa = us.get("koa")!;
  const koaProd = us.get("koa-prod")!;
  lines.push(
    `| configuration | CPU us/req (least of ${o.rounds}) | vs bare Koa | vs Koa + same middleware | over production defaults | CPU us/req (median) | req/s (median) |`,
    "|---|--:|--:|--:|--:|--:|--:|",
  );
  for (const row of rows) {
    const value = us.get(row.key)!;
    const over = row.addsTo && us.has(row.addsTo) ? plus(value / us.get(row.addsTo)! - 1) : "";
    lines.push(
      `| ${row.label} | ${value.toFixed(1)} | ${pct(value / koa)} | ${pct(value / koaProd)} | ${over} | ${median(samples.get(row.key)!).toFixed(1)} | ${Math.round(median(rps.get(row.key)!))} |`,
    );
  }
  partsTable(rows, us, lines);
}

/**
 * What each part of a framework's production defaults costs, from `values` per row (CPU time or
 * instructions): its production row less the row without the part; also what batteries off add to
 * bare Koa, and the session check and CSRF guard (the battery less its headers). Empty without `--parts`.
 */
export function partCosts(
  rows: readonly CpuRow[],
  values: ReadonlyMap<string, number>,
): Array<{ readonly label: string; readonly cost: number }> {
  const koa = values.get("koa")!;
  const parted = rows.filter((row) => row.without);
  const costs: Array<{ label: string; cost: number }> = [];
  for (const fw of new Set(parted.map((row) => row.server))) {
    const prod = values.get(`${fw}-prod`);
    if (prod === undefined) continue;
    const off = values.get(`${fw}-off`);
    if (off !== undefined)
      costs.push({
        label: `${fw}: routing, dispatch and the request id (batteries off, over bare Koa)`,
        cost: off - koa,
      });
    for (const row of parted.filter((r) => r.server === fw))
      costs.push({ label: `${fw}: ${PRODUCTION_PARTS[row.without!].label}`, cost: prod - values.get(row.key)! });
    const headers = values.get(`${fw}-prod-without-security-headers`);
    const battery = values.get(`${fw}-prod-without-security-battery`);
    if (headers !== undefined && battery !== undefined)
      costs.push({
        label: `${fw}: the session check and CSRF guard (the battery less its headers)`,
        cost: headers - battery,
      });
  }
  return costs;
}

/** The table of {@link partCosts} in CPU microseconds, appended to `lines`. */
function partsTable(rows: readonly CpuRow[], us: ReadonlyMap<string, number>, lines: string[]): void {
  const costs = partCosts(rows, us);
  if (costs.length === 0) return;
  const koa = us.get("koa")!;
  lines.push("", "| part of the production defaults | CPU us/req it costs | of bare Koa's request |", "|---|--:|--:|");
  for (const { label, cost } of costs)
    lines.push(`| ${label} | ${cost.toFixed(1)} | ${((cost / koa) * 100).toFixed(0)}% |`);
}

/**
 * The rows a run measures: every row (with `parts`, the rows without each part too) whose key
 * starts with one of `only`, and the Koa baselines always.
 */
export function selectedRows(parts: boolean, only: readonly string[] | undefined): CpuRow[] {
  return cpuRows(parts).filter(
    (r) => r.server === "bare-koa" || !only || only.some((prefix) => r.key.startsWith(prefix)),
  );
}

/** The rows whose start-up is measured: bare Koa's script and each framework's production app. */
export function startRowsOf(rows: readonly CpuRow[]): CpuRow[] {
  return rows.filter((r) => r.key === "koa" || (r.key.endsWith("-prod") && r.server !== "bare-koa"));
}

/** Runs the CPU mode and prints its tables (also written to results/cpu.json). */
export async function runCpuMode(argv: readonly string[]): Promise<void> {
  const o = parse(argv);
  const rows = selectedRows(o.parts, o.only);
  const load0 = loadavg();
  console.log(
    `bench --cpu: ${rows.length} servers, ${o.rounds} rounds of ${o.window} s each after ${o.warmup} s of warm-up (${o.loader}, ${o.connections} connections); load average ${load0.map((l) => l.toFixed(2)).join(" / ")}`,
  );
  const samples = new Map<string, number[]>(rows.map((r) => [r.key, []]));
  const rps = new Map<string, number[]>(rows.map((r) => [r.key, []]));
  const lines: string[] = [];
  if (!o.startOnly) await cpuRounds(rows, o, samples, rps, lines);
  // Start-up: spawn to the first 200, fresh processes, alternating.
  const startRows = startRowsOf(rows);
  const starts = new Map<string, number[]>(startRows.map((r) => [r.key, []]));
  // The `start` command of a built scaffolded app, for each framework with a production row.
  const commands = (["fw-a", "fw-b"] as const).filter((fw) => startRows.some((row) => row.key === `${fw}-prod`));
  for (const fw of commands) starts.set(`${fw}-start-command`, []);
  // The same starts on both cores, as `npm start` runs on a machine: the process's own threads (V8's
  // compiler and collector, libuv's pool) then run beside its main thread instead of taking turns.
  const koaRow = startRows.find((row) => row.key === "koa")!;
  starts.set("koa-both-cores", []);
  for (const fw of commands) starts.set(`${fw}-start-command-both-cores`, []);
  for (let i = 0; i < o.starts; i++) {
    for (const row of startRows) starts.get(row.key)!.push(await startToFirst200(row, 0));
    for (const fw of commands) starts.get(`${fw}-start-command`)!.push(await startCommandToFirst200(fw, 0));
    starts.get("koa-both-cores")!.push(await startToFirst200(koaRow, undefined));
    for (const fw of commands)
      starts.get(`${fw}-start-command-both-cores`)!.push(await startCommandToFirst200(fw, undefined));
  }
  lines.push(
    "",
    `| start (spawn to first 200, compiled JS) | ms (least of ${o.starts}) | vs bare Koa script | ms (median) |`,
    "|---|--:|--:|--:|",
  );
  const command = (fw: string) =>
    `${fw} start --workers 1 of a scaffolded app built with its CLI, first 200 on / (compile cache filled by an earlier start)`;
  // Each row against bare Koa's script started the same way (pinned to core 0, or on both cores).
  const labelled = [
    ...startRows.map((row) => [row.key, row.label, "koa"] as const),
    ...commands.map((fw) => [`${fw}-start-command`, command(fw), "koa"] as const),
    ["koa-both-cores", `${koaRow.label}, on both cores`, "koa-both-cores"] as const,
    ...commands.map(
      (fw) => [`${fw}-start-command-both-cores`, `${command(fw)}, on both cores`, "koa-both-cores"] as const,
    ),
  ];
  for (const [key, label, baseline] of labelled) {
    const ms = Math.min(...starts.get(key)!);
    const koaStart = Math.min(...starts.get(baseline)!);
    lines.push(`| ${label} | ${ms.toFixed(0)} | ${pct(ms / koaStart)} | ${median(starts.get(key)!).toFixed(0)} |`);
  }
  const load1 = loadavg();
  lines.push(
    "",
    `Load average at the start ${load0.map((l) => l.toFixed(2)).join(" / ")}, at the end ${load1.map((l) => l.toFixed(2)).join(" / ")}.`,
  );
  console.log(`\n${lines.join("\n")}\n`);
  const dir = fileURLToPath(new URL("../results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  const raw = Object.fromEntries(rows.map((r) => [r.key, { cpuUs: samples.get(r.key), rps: rps.get(r.key) }]));
  const startRaw = Object.fromEntries(starts);
  writeFileSync(
    `${dir}cpu.json`,
    `${JSON.stringify({ options: o, loadavg: [load0, load1], raw, starts: startRaw, table: lines }, null, 2)}\n`,
  );
  console.log(`Results: ${dir}cpu.json`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runCpuMode(process.argv.slice(2));
