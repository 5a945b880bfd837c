// The rows of `pnpm bench --cpu` without sockets: each configuration in its own process (what one
// app turns on for the whole process, such as tracing's context manager, touches no other row), its
// app's request callback handed real IncomingMessage / ServerResponse objects, CPU time per request
// over blocks after a warm-up. The processes of a round run one after the other, the order rotating
// between rounds; the table gives the median over rounds and every row against bare Koa and Koa with
// the same middleware. A busy machine delays a process but adds little to its CPU time per request.
//   node dist/micro-rows.js [--rounds=3] [--requests=40000] [--warmup=20000] [--only=fw-a-off,...]
// (`--only` keeps the rows whose key starts so; the Koa baselines always run.) One row alone, its
// figure on stderr: node dist/micro-rows.js --row=fw-a-prod [--profile=FILE] (a CPU profile of the
// measured requests alone, warm-up and start-up left out; `node dist/profile-summary.js FILE 30 N`).
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import Koa from "koa";
import { E_BENCH_OPTION, E_BENCH_RUN } from "./errors.js";
import { parseFlags } from "./flags.js";
import { call, type Callback } from "./micro-harness.js";
import { spec as specA } from "./servers/fw-a.js";
import { spec as specB } from "./servers/fw-b.js";
import { frameworkHost } from "./servers/framework.js";
import { productionKoa } from "./servers/koa-production.js";
import type { Scenario } from "./workloads.js";
import { TEXT_BODY } from "./workloads.js";

/** One configuration: how its app is made, its URL, its extra environment. */
interface MicroRow {
  readonly key: string;
  readonly label: string;
  readonly url: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly addsTo?: string;
  readonly make: () => Promise<{ callback: Callback; close: () => Promise<void> }>;
}

function bareKoa(): Koa {
  const app = new Koa();
  app.use((ctx) => {
    if (ctx.path === "/text") {
      ctx.type = "text/plain; charset=utf-8";
      ctx.body = TEXT_BODY;
    }
  });
  return app;
}

const koaRow = (app: () => Koa) => async () => ({ callback: app().callback() as Callback, close: async () => {} });
const fwRow = (fw: "fw-a" | "fw-b", scenario: Scenario) => async () => {
  const host = await frameworkHost(fw === "fw-a" ? specA : specB, scenario);
  return { callback: host.callback() as unknown as Callback, close: () => host.close() };
};

/** The rows, baselines first (the same configurations as the CPU mode's). */
export function microRows(): MicroRow[] {
  const rows: MicroRow[] = [
    { key: "koa", label: "bare Koa, no middleware", url: "/text", make: koaRow(bareKoa) },
    {
      key: "koa-prod",
      label: "Koa + the same middleware (helmet, koa-session, CSRF check, pino line)",
      url: "/text",
      make: koaRow(productionKoa),
    },
  ];
  for (const fw of ["fw-a", "fw-b"] as const) {
    const url = fw === "fw-a" ? "/text/" : "/text";
    rows.push(
      { key: `${fw}-off`, label: `${fw}, batteries off`, url, make: fwRow(fw, "basic") },
      { key: `${fw}-prod`, label: `${fw}, production defaults`, url, make: fwRow(fw, "production") },
      {
        key: `${fw}-metrics`,
        label: `${fw}, production + metrics`,
        url,
        addsTo: `${fw}-prod`,
        make: fwRow(fw, "production-metrics"),
      },
      {
        key: `${fw}-traced`,
        label: `${fw}, production + tracing, every request sampled (not exported)`,
        url,
        addsTo: `${fw}-prod`,
        make: fwRow(fw, "production-tracing"),
      },
      {
        key: `${fw}-traced-views`,
        label: `${fw}, production + tracing with a span per view too (tracing.viewSpans)`,
        url,
        env: { BENCH_VIEW_SPANS: "1" },
        addsTo: `${fw}-prod`,
        make: fwRow(fw, "production-tracing"),
      },
      {
        key: `${fw}-dropped`,
        label: `${fw}, production + tracing, the sampler drops (always_off)`,
        url,
        env: { OTEL_TRACES_SAMPLER: "always_off" },
        addsTo: `${fw}-prod`,
        make: fwRow(fw, "production-tracing"),
      },
    );
  }
  return rows;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * One turn of the event loop: the log lines' writes complete (without it they pile up in pino's
 * buffer, and the heap, the garbage collector's work with it, grows with every request).
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs one row in this process: CPU microseconds per request, the median of 8 blocks after the warm-up. */
async function runRow(row: MicroRow, requests: number, warmup: number, profile?: string): Promise<number> {
  const app = await row.make();
  const block = Math.max(1, Math.floor(requests / 8));
  for (let i = 0; i < warmup; i++) {
    if ((await call(app.callback, row.url)) !== 200) throw new E_BENCH_RUN(row.label, `${row.url} did not answer 200`);
    if (i % 100 === 99) await turn();
  }
  const profiler = profile ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
  }
  const costs: number[] = [];
  for (let b = 0; b < 8; b++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < block; i++) {
      await call(app.callback, row.url);
      if (i % 100 === 99) await turn();
    }
    const d = process.cpuUsage(t0);
    costs.push((d.user + d.system) / block);
  }
  if (profiler && profile) {
    const { profile: recorded } = await profiler.post("Profiler.stop");
    writeFileSync(profile, JSON.stringify(recorded));
    profiler.disconnect();
  }
  await app.close();
  return median(costs);
}

function parse(argv: readonly string[]) {
  const flags = parseFlags(argv, ["rounds", "requests", "warmup", "only", "row", "profile"]);
  return {
    rounds: flags.number("rounds", 3, true),
    requests: flags.number("requests", 40_000, true),
    warmup: flags.number("warmup", 20_000, true),
    only: flags.get("only")?.split(",").filter(Boolean),
    row: flags.get("row"),
    profile: flags.get("profile"),
  };
}

function rowOf(key: string): MicroRow {
  const row = microRows().find((r) => r.key === key);
  if (!row)
    throw new E_BENCH_OPTION(
      `Unknown row "${key}"; known: ${microRows()
        .map((r) => r.key)
        .join(", ")}.`,
    );
  return row;
}

/** Runs a row in a child process (its log lines to /dev/null) and resolves with its figure. */
function inChild(row: MicroRow, requests: number, warmup: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(import.meta.url),
      [`--row=${row.key}`, `--requests=${requests}`, `--warmup=${warmup}`],
      { stdio: ["ignore", "ignore", "inherit", "ipc"], env: { ...process.env, ...row.env } },
    );
    let figure: number | undefined;
    child.on("message", (message) => {
      figure = Number(message);
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      figure !== undefined && code === 0
        ? resolve(figure)
        : reject(new E_BENCH_RUN(row.label, `its process ended with ${code} and no figure`)),
    );
  });
}

const times = (x: number) => `${x.toFixed(2)}x`;

async function main(argv: readonly string[]): Promise<void> {
  const o = parse(argv);
  if (o.row) {
    const us = await runRow(rowOf(o.row), o.requests, o.warmup, o.profile);
    if (process.send) process.send(us);
    else process.stderr.write(`${o.row}: ${us.toFixed(2)} us/req\n`);
    process.exit(0);
  }
  const rows = microRows().filter((r) => r.key.startsWith("koa") || !o.only || o.only.some((p) => r.key.startsWith(p)));
  const load0 = loadavg();
  const samples = new Map<string, number[]>(rows.map((r) => [r.key, []]));
  for (let round = 0; round < o.rounds; round++) {
    const shift = Math.floor((round * rows.length) / o.rounds);
    for (const row of [...rows.slice(shift), ...rows.slice(0, shift)])
      samples.get(row.key)!.push(await inChild(row, o.requests, o.warmup));
    process.stderr.write(`round ${round + 1}/${o.rounds} done\n`);
  }
  const us = new Map(rows.map((r) => [r.key, median(samples.get(r.key)!)]));
  const koa = us.get("koa")!;
  const koaProd = us.get("koa-prod")!;
  const lines = [
    `In-process CPU per request (${o.rounds} processes per row, ${o.requests} requests each after ${o.warmup} of warm-up):`,
    "",
    "| configuration | CPU us/req | vs bare Koa | vs Koa + same middleware | over production defaults | all rounds |",
    "|---|--:|--:|--:|--:|---|",
  ];
  for (const row of rows) {
    const value = us.get(row.key)!;
    const base = row.addsTo ? us.get(row.addsTo) : undefined;
    const over = base ? `${value >= base ? "+" : ""}${((value / base - 1) * 100).toFixed(0)}%` : "";
    const all = samples
      .get(row.key)!
      .map((x) => x.toFixed(2))
      .join(", ");
    lines.push(
      `| ${row.label} | ${value.toFixed(2)} | ${times(value / koa)} | ${times(value / koaProd)} | ${over} | ${all} |`,
    );
  }
  const load1 = loadavg();
  lines.push(
    "",
    `Load average at the start ${load0.map((l) => l.toFixed(2)).join(" / ")}, at the end ${load1.map((l) => l.toFixed(2)).join(" / ")}.`,
  );
  console.log(lines.join("\n"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
