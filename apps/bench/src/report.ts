import type { RawResults, RunRecord } from "./runner.js";
import { SERVERS } from "./servers/registry.js";
import { WORKLOADS } from "./workloads.js";

/** Median requests/s, p99 and RSS of one server on one workload, with ratios of the same run. */
export interface Row {
  readonly workload: string;
  readonly server: string;
  readonly rps: number;
  readonly p99: number;
  readonly rssMiB: number;
  /** Median server CPU time per request, microseconds. */
  readonly cpuUs: number;
  readonly runs: number;
  /** (max - min) / median of requests/s over the rounds: how noisy this figure was. */
  readonly spread: number;
  readonly vsBareKoa?: number;
  readonly vsKoaRouter?: number;
  readonly vsNest?: number;
  /** Against Fastify on the same workload (bare Fastify on the simple routes, with its plugins in production and db). */
  readonly vsFastify?: number;
  /** The same ratios from CPU time per request (bare Koa's CPU/request over this server's). */
  readonly cpuVsBareKoa?: number;
  readonly cpuVsKoaRouter?: number;
  readonly cpuVsNest?: number;
  readonly cpuVsFastify?: number;
}

/** One server at one route count. */
export interface ScalingRow {
  readonly server: string;
  readonly routes: number;
  readonly rps: number;
  readonly p99: number;
  readonly rssMiB: number;
  readonly cpuUs: number;
  readonly startupMs: number;
  readonly appBuildMs: number;
  readonly tableMs: number;
  /** Requests/s relative to the same server with 10 routes (the smallest size run). */
  readonly vsSmallest: number;
  /** The same from CPU time per request. */
  readonly cpuVsSmallest: number;
}

/** A goal the bench checks, and what was measured. */
export interface Goal {
  readonly goal: string;
  readonly subject: string;
  readonly measured: string;
  /** The same figure from CPU time per request (noise-resistant), when it applies. */
  readonly measuredCpu?: string;
  /** `reported`: a figure shown for information, with no threshold. */
  readonly met: boolean | "pending" | "reported";
}

/** `start --workers N` of a built fw-a app: medians over the rounds. */
export interface WorkersRow {
  readonly workers: number;
  readonly rps: number;
  readonly p99: number;
  readonly cpuUs: number;
  readonly runs: number;
  /** Requests/s against `--workers 1`. */
  readonly vsOne: number;
}

/** What the report prints and writes. */
export interface Summary {
  readonly rows: Row[];
  readonly scaling: ScalingRow[];
  readonly scaffolds: Array<{ framework: string; mode: string; ms: number; runs: number }>;
  /** Absent in summaries of runs without the `workers` scenario. */
  readonly workers?: WorkersRow[];
  readonly goals: Goal[];
  /** Goals of the production workloads (production defaults against bare Koa, the db workload against Fastify, workers). */
  readonly productionGoals?: Goal[];
  /** Servers with no figures at all (failed to start or build). */
  readonly pending: string[];
  readonly noise: { medianSpread: number; maxSpread: number };
}

/** Median of the finite numbers (NaN when there are none). */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const pct = (ratio: number | undefined): string =>
  ratio === undefined || !Number.isFinite(ratio) ? "-" : `${Math.round(ratio * 100)}%`;
// Two decimals: the Fastify ratios are read against goals such as 1.3x.
const times2 = (ratio: number | undefined): string =>
  ratio === undefined || !Number.isFinite(ratio) ? "-" : `${ratio.toFixed(2)}x`;
const times = (ratio: number | undefined): string =>
  ratio === undefined || !Number.isFinite(ratio) ? "-" : `${ratio.toFixed(1)}x`;
const num = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toFixed(digits) : "-");

function rowsOf(runs: readonly RunRecord[]): Row[] {
  const groups = new Map<string, RunRecord[]>();
  for (const run of runs) {
    if (run.workload === "last-route") continue;
    const key = `${run.workload}\u0000${run.server}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const base: Row[] = [...groups.values()].map((list) => {
    const rps = median(list.map((r) => r.rps));
    const values = list.map((r) => r.rps);
    return {
      workload: list[0]!.workload,
      server: list[0]!.server,
      rps,
      p99: median(list.map((r) => r.p99)),
      rssMiB: median(list.map((r) => r.rssMiB)),
      cpuUs: median(list.map((r) => r.cpuUs)),
      runs: list.length,
      spread: list.length > 1 ? (Math.max(...values) - Math.min(...values)) / rps : 0,
    };
  });
  // Ratios are the median over rounds of the ratio within each round: the two runs compared were
  // made seconds apart, so a slow minute on a shared machine weighs on both.
  const paired = (
    workload: string,
    server: string,
    other: string,
    value: (r: RunRecord) => number,
  ): number | undefined => {
    const mine = runs.filter((r) => r.workload === workload && r.server === server);
    const theirs = runs.filter((r) => r.workload === workload && r.server === other);
    const ratios = mine.flatMap((r) => {
      const match = theirs.find((t) => t.round === r.round);
      return match ? [value(r) / value(match)] : [];
    });
    return ratios.length > 0 ? median(ratios) : undefined;
  };
  const ratios = (workload: string, server: string, other: string, key: string, cpuKey: string) => {
    const rps = paired(workload, server, other, (r) => r.rps);
    const cpu = paired(workload, server, other, (r) => 1 / r.cpuUs);
    return {
      ...(rps !== undefined && Number.isFinite(rps) ? { [key]: rps } : {}),
      ...(cpu !== undefined && Number.isFinite(cpu) ? { [cpuKey]: cpu } : {}),
    };
  };
  const order = (r: Row) =>
    WORKLOADS.findIndex((w) => w.name === r.workload) * 100 + SERVERS.findIndex((s) => s.name === r.server);
  return base
    .map((row) => ({
      ...row,
      ...ratios(row.workload, row.server, "bare-koa", "vsBareKoa", "cpuVsBareKoa"),
      ...ratios(row.workload, row.server, "koa-router", "vsKoaRouter", "cpuVsKoaRouter"),
      ...ratios(row.workload, row.server, "nest", "vsNest", "cpuVsNest"),
      ...ratios(row.workload, row.server, "fastify", "vsFastify", "cpuVsFastify"),
    }))
    .sort((a, b) => order(a) - order(b));
}

function scalingOf(results: RawResults): ScalingRow[] {
  const out: ScalingRow[] = [];
  const servers = [...new Set(results.runs.filter((r) => r.workload === "last-route").map((r) => r.server))];
  for (const server of servers) {
    const sizes = [
      ...new Set(
        results.runs
          .filter((r) => r.server === server && r.workload === "last-route")
          .map((r) => Number(r.scenario.slice(7))),
      ),
    ].sort((a, b) => a - b);
    const smallestRuns = results.runs.filter((r) => r.server === server && r.scenario === `routes-${sizes[0]}`);
    // Against the smallest size in the same round (paired, as for the other ratios).
    const pairedVsSmallest = (runs: readonly RunRecord[], value: (r: RunRecord) => number) =>
      median(
        runs.flatMap((r) => {
          const base = smallestRuns.find((b) => b.round === r.round);
          return base ? [value(r) / value(base)] : [];
        }),
      );
    for (const routes of sizes) {
      const scenario = `routes-${routes}`;
      const runs = results.runs.filter((r) => r.server === server && r.scenario === scenario);
      const starts = results.starts.filter((s) => s.server === server && s.scenario === scenario);
      out.push({
        server,
        routes,
        rps: median(runs.map((r) => r.rps)),
        p99: median(runs.map((r) => r.p99)),
        rssMiB: median(runs.map((r) => r.rssMiB)),
        cpuUs: median(runs.map((r) => r.cpuUs)),
        startupMs: median(starts.map((s) => s.startupMs)),
        appBuildMs: median(starts.map((s) => s.timings["appBuild"] ?? Number.NaN)),
        tableMs: median(results.tables.filter((t) => t.server === server && t.routes === routes).map((t) => t.ms)),
        vsSmallest: pairedVsSmallest(runs, (r) => r.rps),
        cpuVsSmallest: pairedVsSmallest(runs, (r) => 1 / r.cpuUs),
      });
    }
  }
  return out;
}

function goalsOf(rows: Row[], scaling: ScalingRow[], scaffolds: Summary["scaffolds"], pending: string[]): Goal[] {
  const goals: Goal[] = [];
  const row = (workload: string, server: string) => rows.find((r) => r.workload === workload && r.server === server);
  const add = (
    goal: string,
    subject: string,
    value: number | undefined,
    measured: (v: number) => string,
    ok: (v: number) => boolean,
    server: string,
    cpuValue?: number,
  ) => {
    const cpu = cpuValue !== undefined && Number.isFinite(cpuValue) ? { measuredCpu: measured(cpuValue) } : {};
    if (value === undefined || !Number.isFinite(value))
      goals.push({ goal, subject, measured: pending.includes(server) ? "pending" : "not measured", met: "pending" });
    else goals.push({ goal, subject, measured: measured(value), ...cpu, met: ok(value) });
  };
  for (const fw of ["fw-a", "fw-b"]) {
    for (const w of ["text", "params", "json"])
      add(
        ">= 90% of bare Koa",
        `${fw} ${w}`,
        row(w, fw)?.vsBareKoa,
        pct,
        (v) => v >= 0.9,
        fw,
        row(w, fw)?.cpuVsBareKoa,
      );
  }
  add(
    ">= 95% of hand-written Koa, same engine",
    "fw-a Nunjucks page",
    row("page-njk", "fw-a")?.vsKoaRouter,
    pct,
    (v) => v >= 0.95,
    "fw-a",
    row("page-njk", "fw-a")?.cpuVsKoaRouter,
  );
  add(
    ">= 95% of hand-written Koa, same engine",
    "fw-b Pug page",
    row("page-pug", "fw-b")?.vsKoaRouter,
    pct,
    (v) => v >= 0.95,
    "fw-b",
    row("page-pug", "fw-b")?.cpuVsKoaRouter,
  );
  for (const fw of ["fw-a", "fw-b"]) {
    for (const w of ["text", "params", "json"])
      add(">= 5x NestJS", `${fw} ${w}`, row(w, fw)?.vsNest, times, (v) => v >= 5, fw, row(w, fw)?.cpuVsNest);
  }
  for (const fw of ["fw-a", "fw-b"]) {
    const big = scaling.find((s) => s.server === fw && s.routes === 10_000);
    const small = scaling.find((s) => s.server === fw && s.routes === 10);
    add(
      "10,000-route rps >= 90% of 10-route rps",
      fw,
      big && small ? big.vsSmallest : undefined,
      pct,
      (v) => v >= 0.9,
      fw,
      big && small ? big.cpuVsSmallest : undefined,
    );
    add(
      "10,000-route table < 300 ms",
      fw,
      big?.tableMs,
      (v) => `${v.toFixed(0)} ms`,
      (v) => v < 300,
      fw,
    );
    add(
      "RSS of 10,000-route app < 2x 10-route app",
      fw,
      big && small ? big.rssMiB / small.rssMiB : undefined,
      times,
      (v) => v < 2,
      fw,
    );
    for (const mode of ["no-reload", "reload"]) {
      const found = scaffolds.find((s) => s.framework === fw && s.mode === mode);
      if (!found && scaffolds.some((s) => s.framework === fw)) continue; // a mode this run did not time (quick)
      add(
        "start-up of a scaffolded app < 1 s",
        `${fw} (serve ${mode === "reload" ? "with reload" : "--no-reload"})`,
        found?.ms,
        (v) => `${v.toFixed(0)} ms`,
        (v) => v < 1000,
        fw,
      );
    }
  }
  return goals;
}

function workersOf(results: RawResults): WorkersRow[] {
  const records = (results.workers ?? []).filter((r) => r.bad === 0 && r.requests > 0);
  const counts = [...new Set(records.map((r) => r.workers))].sort((a, b) => a - b);
  const medians = counts.map((workers) => {
    const list = records.filter((r) => r.workers === workers);
    return {
      workers,
      rps: median(list.map((r) => r.rps)),
      p99: median(list.map((r) => r.p99)),
      cpuUs: median(list.map((r) => r.cpuUs)),
      runs: list.length,
    };
  });
  const one = medians.find((m) => m.workers === 1);
  return medians.map((m) => ({ ...m, vsOne: one ? m.rps / one.rps : Number.NaN }));
}

function productionGoalsOf(rows: Row[], workers: WorkersRow[], pending: string[]): Goal[] {
  const goals: Goal[] = [];
  const row = (workload: string, server: string) => rows.find((r) => r.workload === workload && r.server === server);
  const add = (
    goal: string,
    subject: string,
    value: number | undefined,
    cpu: number | undefined,
    measured: (v: number) => string,
    ok: ((v: number) => boolean) | "reported",
    server: string,
  ) => {
    if (value === undefined || !Number.isFinite(value))
      goals.push({ goal, subject, measured: pending.includes(server) ? "pending" : "not measured", met: "pending" });
    else
      goals.push({
        goal,
        subject,
        measured: measured(value),
        ...(cpu !== undefined && Number.isFinite(cpu) ? { measuredCpu: measured(cpu) } : {}),
        met: ok === "reported" ? ok : ok(value),
      });
  };
  for (const fw of ["fw-a", "fw-b"]) {
    const r = row("prod-text", fw);
    add(
      ">= 90% of bare Koa, production defaults (GET text, no cookie)",
      fw,
      r?.vsBareKoa,
      r?.cpuVsBareKoa,
      pct,
      (v) => v >= 0.9,
      fw,
    );
  }
  // Observability's cost: the production workload with metrics, and with tracing, on, against off.
  for (const [workload, what] of [
    ["prod-text-metrics", "metrics"],
    ["prod-text-tracing", "tracing (spans made, not exported)"],
  ] as const) {
    for (const fw of ["fw-a", "fw-b"]) {
      const on = row(workload, fw);
      const off = row("prod-text", fw);
      const cpu = on && off ? off.cpuUs / on.cpuUs : undefined;
      add(
        `reported: ${what} on, against off (production defaults, GET text)`,
        fw,
        on && off ? on.rps / off.rps : undefined,
        cpu,
        pct,
        "reported",
        fw,
      );
    }
  }
  for (const fw of ["fw-a", "fw-b"]) {
    const r = row("db-read", fw);
    add(
      ">= 1.3x Fastify + plugins, Redis session + PostgreSQL row",
      fw,
      r?.vsFastify,
      r?.cpuVsFastify,
      times2,
      (v) => v >= 1.3,
      fw,
    );
  }
  // The list with relations through the models' preloads, against the same list by hand with knex.
  for (const fw of ["fw-a", "fw-b"]) {
    const models = row("db-relations", fw);
    const hand = row("db-relations-knex", fw);
    add(
      "reported: list with relations, preload against hand-written knex joins (100 tasks, PostgreSQL)",
      fw,
      models && hand ? models.rps / hand.rps : undefined,
      models && hand ? hand.cpuUs / models.cpuUs : undefined,
      pct,
      "reported",
      fw,
    );
  }
  const two = workers.find((w) => w.workers === 2);
  const one = workers.find((w) => w.workers === 1);
  const cpu = two && one ? one.cpuUs / two.cpuUs : undefined;
  add(
    "reported: start --workers 2 against --workers 1 (load generator on the same 2 cores)",
    "fw-a, built app, GET /api/",
    two?.vsOne,
    cpu,
    times2,
    "reported",
    "fw-a",
  );
  return goals;
}

/** Medians, ratios and goals of a run. */
export function summarise(results: RawResults): Summary {
  const rows = rowsOf(results.runs);
  const scaling = scalingOf(results);
  const scaffolds: Summary["scaffolds"] = [];
  for (const record of results.scaffolds) {
    if (scaffolds.some((s) => s.framework === record.framework && s.mode === record.mode)) continue;
    const list = results.scaffolds.filter((s) => s.framework === record.framework && s.mode === record.mode);
    scaffolds.push({
      framework: record.framework,
      mode: record.mode,
      ms: median(list.map((s) => s.ms)),
      runs: list.length,
    });
  }
  const measured = new Set(results.runs.map((r) => r.server));
  const pending = [...new Set(results.failures.map((f) => f.server))].filter((s) => !measured.has(s));
  const spreads = rows.filter((r) => r.runs > 1).map((r) => r.spread);
  const workers = workersOf(results);
  return {
    rows,
    scaling,
    scaffolds,
    workers,
    goals: goalsOf(rows, scaling, scaffolds, pending),
    productionGoals: productionGoalsOf(rows, workers, pending),
    pending,
    noise: { medianSpread: median(spreads), maxSpread: spreads.length ? Math.max(...spreads) : Number.NaN },
  };
}

/** The production-defaults and db workloads, where some servers run their middleware. */
const PRODUCTION_WORKLOADS = new Set([
  "prod-text",
  "prod-text-metrics",
  "prod-text-tracing",
  "db-read",
  "db-relations",
  "db-relations-knex",
]);
const label = (server: string, workload?: string) => {
  const info = SERVERS.find((s) => s.name === server);
  if (!info) return server;
  return workload !== undefined && PRODUCTION_WORKLOADS.has(workload)
    ? (info.productionLabel ?? info.label)
    : info.label;
};
const title = (workload: string) => WORKLOADS.find((w) => w.name === workload)?.title ?? workload;

/** The summary as Markdown tables (also printed to the console). */
export function markdownTables(summary: Summary): string {
  const lines: string[] = [];
  lines.push(
    "| workload | server | req/s (median) | p99 ms | RSS MiB | vs bare Koa | vs Koa + @koa/router | vs NestJS | vs Fastify | spread | CPU us/req | CPU: vs bare Koa | CPU: vs Koa + router | CPU: vs NestJS | CPU: vs Fastify |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  );
  for (const r of summary.rows) {
    lines.push(
      `| ${title(r.workload)} | ${label(r.server, r.workload)} | ${num(r.rps)} | ${num(r.p99, 1)} | ${num(r.rssMiB, 1)} | ${pct(r.vsBareKoa)} | ${pct(r.vsKoaRouter)} | ${times(r.vsNest)} | ${times2(r.vsFastify)} | ${pct(r.spread)} | ${num(r.cpuUs, 1)} | ${pct(r.cpuVsBareKoa)} | ${pct(r.cpuVsKoaRouter)} | ${times(r.cpuVsNest)} | ${times2(r.cpuVsFastify)} |`,
    );
  }
  for (const server of summary.pending) lines.push(`| (all) | ${label(server)} | pending | | | | | | | | | | | | |`);
  lines.push("", "Route-count scaling (request to the last-registered route):", "");
  lines.push(
    "| server | routes | req/s (median) | vs smallest | CPU us/req | CPU: vs smallest | p99 ms | RSS MiB | start-up ms | app build ms | route table ms |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  );
  for (const s of summary.scaling) {
    lines.push(
      `| ${label(s.server)} | ${s.routes.toLocaleString("en")} | ${num(s.rps)} | ${pct(s.vsSmallest)} | ${num(s.cpuUs, 1)} | ${pct(s.cpuVsSmallest)} | ${num(s.p99, 1)} | ${num(s.rssMiB, 1)} | ${num(s.startupMs)} | ${num(s.appBuildMs, 1)} | ${num(s.tableMs, 1)} |`,
    );
  }
  if (summary.scaffolds.length > 0) {
    lines.push(
      "",
      "Start-up of a scaffolded app (CLI process spawn to the first 200 on `/`, development mode, TypeScript through tsx):",
      "",
    );
    lines.push("| framework | serve mode | ms (median) | runs |", "|---|---|--:|--:|");
    for (const s of summary.scaffolds)
      lines.push(
        `| ${s.framework} | ${s.mode === "reload" ? "with reload (default)" : "--no-reload"} | ${num(s.ms)} | ${s.runs} |`,
      );
  }
  if (summary.workers && summary.workers.length > 0) {
    lines.push(
      "",
      "Production server of a built fw-a app (`start --workers N`, APP_ENV=production, `GET /api/`; not pinned, the load generator shares the 2 cores):",
      "",
    );
    lines.push(
      "| workers | req/s (median) | vs --workers 1 | p99 ms | CPU us/req (all processes) | runs |",
      "|--:|--:|--:|--:|--:|--:|",
    );
    for (const w of summary.workers)
      lines.push(
        `| ${w.workers} | ${num(w.rps)} | ${times2(w.vsOne)} | ${num(w.p99, 1)} | ${num(w.cpuUs, 1)} | ${w.runs} |`,
      );
  }
  if (summary.productionGoals && summary.productionGoals.length > 0) {
    lines.push("", "Goals of the production workloads:", "");
    lines.push("| goal | subject | measured (req/s) | from CPU per request | met (req/s) |", "|---|---|--:|--:|---|");
    for (const g of summary.productionGoals) {
      lines.push(
        `| ${g.goal} | ${g.subject} | ${g.measured} | ${g.measuredCpu ?? "-"} | ${g.met === "pending" || g.met === "reported" ? g.met : g.met ? "yes" : "**no**"} |`,
      );
    }
  }
  lines.push("", "Goals of routing, pages, route-table size and start-up:", "");
  lines.push("| goal | subject | measured (req/s) | from CPU per request | met (req/s) |", "|---|---|--:|--:|---|");
  for (const g of summary.goals) {
    lines.push(
      `| ${g.goal} | ${g.subject} | ${g.measured} | ${g.measuredCpu ?? "-"} | ${g.met === "pending" ? "pending" : g.met ? "yes" : "**no**"} |`,
    );
  }
  return lines.join("\n");
}
