import { E_BENCH_OPTION } from "./errors.js";
import type { Loader } from "./load.js";
import { SERVERS, type ServerName } from "./servers/registry.js";
import { WORKLOADS, lastRouteWorkload, type Scenario, type Workload } from "./workloads.js";

/** How a bench run is done. */
export interface BenchOptions {
  readonly quick: boolean;
  /** Rounds: every configuration runs once per round, rounds interleaved (full: 4, so a full run with the peers stays under 15 minutes). */
  readonly rounds: number;
  /** Seconds of measured load per run. */
  readonly duration: number;
  /** Seconds of unmeasured load before the first run of each server and workload. */
  readonly warmup: number;
  /** Warm up before each workload's first run (full) or only before a server's first workload (quick). */
  readonly warmupEach: boolean;
  /** Rounds of start-up, table-build and scaffold timings (fresh processes each; 3 in full runs). */
  readonly startupRounds: number;
  /** Quick runs time start-up on the processes started for the load instead of extra ones. */
  readonly startupFromLoad: boolean;
  /** Route counts whose table build and start-up are timed in fresh processes (quick: the largest only). */
  readonly startupSizes: readonly number[];
  /** Concurrent connections of the load generator. */
  readonly connections: number;
  /** wrk when it is on PATH, else autocannon (`--loader=autocannon` forces it). */
  readonly loader: Loader;
  /** Route counts of the scaling runs. */
  readonly routeSizes: readonly number[];
  /** Only these servers (default all). */
  readonly servers: readonly ServerName[];
  /** Only these scenarios (`basic`, `security`, `production`, `observability`, `db`, `routes`, `workers`; default all; `relations` when named). */
  readonly scenarios: readonly string[];
  /** Measure the start-up of scaffolded apps. */
  readonly scaffold: boolean;
  /** Scaffold serve modes timed (quick: `no-reload` only). */
  readonly scaffoldModes: ReadonlyArray<"no-reload" | "reload">;
  /** Run servers and the load generator at a higher scheduling priority (`nice -n -10`; needs root). */
  readonly priority: boolean;
  /** Start servers with `--cpu-prof` (profiles land in results/profiles). */
  readonly profile: boolean;
  /**
   * Scenarios whose servers are started anew for every round (each round warmed up again), so that
   * a figure is the median over several processes: one process's speed depends on what the compiler
   * and the heap made of it at start-up (default: `production` and `db`, whose goals compare
   * ratios within a few percent; none when profiling, whose profile covers one process).
   */
  readonly freshScenarios: readonly string[];
  /** Update docs/benchmarks.md (default: on full, unfiltered runs). */
  readonly writeDoc: boolean;
  /** A run narrowed by `--only`, `--scenarios` or `--sizes` (written to results/partial.json, not latest.json). */
  readonly filtered: boolean;
  /** Re-report a results file instead of running (`--from=apps/bench/results/latest.json`). */
  readonly from?: string;
}

/** One server process configuration and the workloads it is loaded with. */
export interface Configuration {
  readonly server: ServerName;
  readonly scenario: Scenario;
  readonly workloads: readonly Workload[];
}

/** The scenarios of a full run; `workers` is `start --workers 1` / `2` of a built fw-a app. */
export const SCENARIOS: readonly string[] = Object.freeze([
  "basic",
  "security",
  "production",
  "observability",
  "db",
  "routes",
  "workers",
]);

/**
 * Scenarios run only when named (`--scenarios=db,relations`): `relations` is the list with
 * relations (preload against hand-written knex joins) on the db scenario's servers, kept out of
 * the full run so that its load stays within its budget.
 */
export const NAMED_SCENARIOS: readonly string[] = Object.freeze(["relations"]);

/** Parses `pnpm bench` arguments: `--quick`, `--rounds=N`, `--duration=S`, `--warmup=S`, `--connections=N`, `--only=a,b`, `--scenarios=basic,routes`, `--sizes=10,1000`, `--loader=wrk|autocannon`, `--no-scaffold`, `--priority`, `--profile`, `--fresh=production,db|none`, `--doc` / `--no-doc`, `--from=FILE` (re-report a results file). */
export function parseOptions(argv: readonly string[], wrkAvailable: boolean): BenchOptions {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new E_BENCH_OPTION(`Unknown argument "${arg}".`);
    flags.set(match[1]!, match[2] ?? "true");
  }
  const known = [
    "quick",
    "rounds",
    "duration",
    "warmup",
    "connections",
    "only",
    "scenarios",
    "sizes",
    "no-scaffold",
    "profile",
    "doc",
    "no-doc",
    "loader",
    "priority",
    "fresh",
    "from",
  ];
  for (const key of flags.keys())
    if (!known.includes(key))
      throw new E_BENCH_OPTION(`Unknown option --${key}; known: ${known.map((k) => `--${k}`).join(" ")}.`);
  const quick = flags.has("quick");
  const number = (key: string, fallback: number): number => {
    const raw = flags.get(key);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0)
      throw new E_BENCH_OPTION(`--${key} needs a positive number, got "${raw}".`);
    return value;
  };
  const list = (key: string): string[] | undefined =>
    flags
      .get(key)
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const servers = (list("only") ?? SERVERS.map((s) => s.name)) as ServerName[];
  for (const name of servers)
    if (!SERVERS.some((s) => s.name === name))
      throw new E_BENCH_OPTION(`--only: unknown server "${name}"; known: ${SERVERS.map((s) => s.name).join(", ")}.`);
  const scenarios = list("scenarios") ?? [...SCENARIOS];
  const knownScenarios = [...SCENARIOS, ...NAMED_SCENARIOS];
  for (const scenario of scenarios)
    if (!knownScenarios.includes(scenario))
      throw new E_BENCH_OPTION(`--scenarios: unknown scenario "${scenario}"; known: ${knownScenarios.join(", ")}.`);
  const routeSizes = (list("sizes") ?? (quick ? ["10", "10000"] : ["10", "1000", "10000"])).map(Number);
  const filtered = flags.has("only") || flags.has("scenarios") || flags.has("sizes");
  const loader = (flags.get("loader") ?? (wrkAvailable ? "wrk" : "autocannon")) as Loader;
  if (loader !== "wrk" && loader !== "autocannon")
    throw new E_BENCH_OPTION(`--loader must be wrk or autocannon, got "${String(loader)}".`);
  if (loader === "wrk" && !wrkAvailable)
    throw new E_BENCH_OPTION("--loader=wrk: wrk is not on PATH (apt-get install wrk).");
  // Observability is not fresh by default: the full run's load stays within its budget.
  const fresh = flags.get("fresh") === "none" ? [] : (list("fresh") ?? ["production", "db"]);
  // `workers` starts its own processes (the built app's `start`), once per worker count.
  const freshable = SCENARIOS.filter((scenario) => scenario !== "workers");
  for (const scenario of fresh)
    if (!freshable.includes(scenario))
      throw new E_BENCH_OPTION(
        `--fresh: "${scenario}" is not a scenario whose servers can be started anew; use ${freshable.join(", ")}, or none.`,
      );
  return {
    quick,
    loader,
    rounds: number("rounds", quick ? 1 : 4),
    duration: number("duration", quick ? 1 : 2),
    warmup: number("warmup", quick ? 1 : 2),
    connections: number("connections", 50),
    routeSizes,
    warmupEach: !quick,
    startupRounds: quick ? 1 : 3,
    startupFromLoad: quick,
    startupSizes: quick ? [Math.max(...routeSizes)] : routeSizes,
    servers,
    scenarios,
    scaffold: !flags.has("no-scaffold") && scenarios.includes("routes"),
    scaffoldModes: quick ? ["no-reload"] : ["no-reload", "reload"],
    priority: flags.has("priority"),
    filtered,
    profile: flags.has("profile"),
    freshScenarios: flags.has("profile") || quick ? [] : fresh,
    writeDoc:
      flags.has("doc") || (!quick && !filtered && !flags.has("no-doc") && !flags.has("profile") && !flags.has("from")),
    ...(flags.get("from") ? { from: flags.get("from")! } : {}),
  };
}

/** Every server process configuration of a run, in a stable order. */
export function configurations(options: BenchOptions): Configuration[] {
  const out: Configuration[] = [];
  const add = (server: ServerName, scenario: Scenario, workloads: Workload[]) => {
    if (workloads.length > 0) out.push({ server, scenario, workloads });
  };
  for (const info of SERVERS) {
    if (!options.servers.includes(info.name)) continue;
    const serves = (w: Workload) => info.workloads.includes(w.name);
    if (options.scenarios.includes("basic"))
      add(
        info.name,
        "basic",
        WORKLOADS.filter((w) => w.scenario === "basic" && serves(w)),
      );
    if (options.scenarios.includes("security"))
      add(
        info.name,
        "security",
        WORKLOADS.filter((w) => w.scenario === "security" && serves(w)),
      );
    if (options.scenarios.includes("production"))
      add(
        info.name,
        "production",
        WORKLOADS.filter((w) => w.scenario === "production" && serves(w)),
      );
    // The relations workloads run on the db scenario's servers, in the same processes as db-read.
    add(
      info.name,
      "db",
      WORKLOADS.filter(
        (w) =>
          serves(w) && (w.scenario === "db" || w.scenario === "relations") && options.scenarios.includes(w.scenario),
      ),
    );
    // Observability: the production defaults again, with metrics or tracing on (one process each).
    for (const scenario of ["production-metrics", "production-tracing"] as const) {
      if (options.scenarios.includes("observability"))
        add(
          info.name,
          scenario,
          WORKLOADS.filter((w) => w.scenario === scenario && serves(w)),
        );
    }
    if (options.scenarios.includes("routes") && info.workloads.includes("last-route")) {
      for (const size of options.routeSizes) add(info.name, `routes-${size}`, [lastRouteWorkload(size)]);
    }
  }
  return out;
}

/** The scenario a configuration belongs to for grouping and `--fresh`: `routes` for every `routes-N`, `observability` for the production ones with metrics or tracing. */
export function scenarioGroup(scenario: string): string {
  if (scenario === "production-metrics" || scenario === "production-tracing") return "observability";
  return scenario.startsWith("routes-") ? "routes" : scenario;
}

/** Seconds of load a run plans (warm-ups and measured runs, the workers scenario included), for the start-up line. */
export function plannedLoadSeconds(options: BenchOptions): number {
  const fresh = (c: Configuration) => options.freshScenarios.includes(scenarioGroup(c.scenario));
  const warmups = (c: Configuration) => (fresh(c) ? options.rounds : 1) * (options.warmupEach ? options.warmup : 0);
  const slots = configurations(options).reduce(
    (sum, c) => sum + c.workloads.length * (options.rounds * options.duration + warmups(c)),
    0,
  );
  const workers =
    options.scenarios.includes("workers") && options.servers.includes("fw-a")
      ? 2 * (options.warmup + options.rounds * options.duration)
      : 0;
  return slots + workers;
}

/** The configurations of round `round`, rotated so that no configuration always runs first or last. */
export function roundOrder<T>(items: readonly T[], round: number, rounds: number): T[] {
  if (items.length === 0) return [];
  const shift = Math.floor((round * items.length) / Math.max(rounds, 1)) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
