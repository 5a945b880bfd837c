import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { E_BENCH_RUN } from "./errors.js";
import { cookieHeader, runLoad, verify, type Target } from "./load.js";
import { configurations, roundOrder, scenarioGroup, type BenchOptions, type Configuration } from "./plan.js";
import { cpuSeconds, measureTableInProcess, rssMiB, startServer, type ServerProcess } from "./processes.js";
import { measureScaffolds, type ScaffoldRecord } from "./scaffold.js";
import { summariseProfile } from "./profile-summary.js";
import { pathFor, serverInfo } from "./servers/registry.js";
import { measureWorkers, type WorkersRecord } from "./workers.js";
import { LOGIN_PATH, type Workload } from "./workloads.js";

/** One measured load run. */
export interface RunRecord {
  readonly round: number;
  readonly server: string;
  readonly scenario: string;
  readonly workload: string;
  readonly rps: number;
  readonly p99: number;
  readonly meanLatency: number;
  /** Non-2xx answers and socket errors during the run (0 for a valid run). */
  readonly bad: number;
  /** Requests completed in the measured run. */
  readonly requests: number;
  /** RSS of the server right after this run, MiB. */
  readonly rssMiB: number;
  /**
   * Server CPU time per request, microseconds: what the request costs, whatever else the machine
   * was doing (other work delays a server but does not add to its CPU time).
   */
  readonly cpuUs: number;
}

/** One server process start. */
export interface StartRecord {
  readonly round: number;
  readonly server: string;
  readonly scenario: string;
  /** Process spawn to the first answered request, ms. */
  readonly startupMs: number;
  /** Steps the server timed itself (appBuild...), ms. */
  readonly timings: Readonly<Record<string, number>>;
}

/** One route-table build, in a fresh process. */
export interface TableRecord {
  readonly round: number;
  readonly server: string;
  readonly routes: number;
  readonly ms: number;
}

/** Everything a bench run measured. */
export interface RawResults {
  readonly runs: RunRecord[];
  readonly starts: StartRecord[];
  readonly tables: TableRecord[];
  readonly scaffolds: ScaffoldRecord[];
  /** `start --workers 1` and `--workers 2` of a built fw-a app (absent when the `workers` scenario did not run). */
  readonly workers?: WorkersRecord[];
  /** Configurations that failed, with the reason (e.g. a framework that does not build yet). */
  readonly failures: Array<{ server: string; scenario: string; error: string }>;
}

const SERVER_CORE = 0;
const PROFILE_DIR = fileURLToPath(new URL("../results/profiles/", import.meta.url));

/** Warms this process's fetch (undici loads lazily) so the first start-up figure is not inflated. */
async function warmFetch(): Promise<void> {
  const server = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await (await fetch(`http://127.0.0.1:${port}/`)).text();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Logs in on a security-scenario server: the session cookie and CSRF token the load will replay. */
async function login(base: string, trailingSlash: boolean): Promise<Record<string, string>> {
  const response = await fetch(base + (trailingSlash ? `${LOGIN_PATH}/` : LOGIN_PATH), { redirect: "manual" });
  const text = await response.text();
  if (response.status !== 200) throw new E_BENCH_RUN("login", `answered ${response.status}: ${text.slice(0, 200)}`);
  const token = (JSON.parse(text) as { token?: unknown }).token;
  const cookie = cookieHeader(response);
  if (typeof token !== "string" || !cookie)
    throw new E_BENCH_RUN("login", `gave no token or no cookie: ${text.slice(0, 200)}`);
  return { cookie, "x-csrf-token": token };
}

function targetFor(base: string, trailingSlash: boolean, workload: Workload, session: Record<string, string>): Target {
  const info = { trailingSlash } as Parameters<typeof pathFor>[0];
  const headers: Record<string, string> = { ...session };
  if (workload.body !== undefined) headers["content-type"] = "application/json";
  else delete headers["x-csrf-token"];
  return {
    url: base + pathFor(info, workload.path),
    method: workload.method,
    headers,
    ...(workload.body !== undefined ? { body: JSON.stringify(workload.body) } : {}),
  };
}

/** A started server of a group, with the headers its requests carry (session cookie, CSRF token). */
interface Live {
  readonly config: Configuration;
  readonly proc: ServerProcess;
  readonly base: string;
  readonly session: Record<string, string>;
}

const profileName = (config: Configuration) => `${config.server}-${config.scenario}.cpuprofile`;

function profileEnv(options: BenchOptions, config: Configuration): Record<string, string> {
  if (!options.profile) return {};
  mkdirSync(PROFILE_DIR, { recursive: true });
  return { BENCH_PROFILE: `${PROFILE_DIR}${profileName(config)}` };
}

/**
 * After a profiled server exits (its profile is written then): the top self-time items, in
 * microseconds per request over every request it answered (warm-ups included). The profile runs
 * from the moment the server listened (server-main), so start-up is not in it.
 */
function logProfile(config: Configuration, requests: number, log: (line: string) => void): void {
  const file = `${PROFILE_DIR}${profileName(config)}`;
  if (!existsSync(file)) {
    log(`  profile of ${config.server} ${config.scenario}: no file at ${file}`);
    return;
  }
  log(`profile of ${config.server} ${config.scenario} (${requests} requests): ${file}`);
  for (const line of summariseProfile(JSON.parse(readFileSync(file, "utf8")), 20, requests)) log(`  ${line}`);
}

/** Starts a configuration's server, logs in when needed, and checks every workload's answer once. */
async function bringUp(config: Configuration, options: BenchOptions, results: RawResults): Promise<Live> {
  const info = serverInfo(config.server);
  const proc = await startServer({
    server: config.server,
    scenario: config.scenario,
    core: SERVER_CORE,
    env: profileEnv(options, config),
  });
  try {
    const base = `http://127.0.0.1:${proc.port}`;
    const session =
      config.scenario === "security" || config.scenario === "db" ? await login(base, info.trailingSlash) : {};
    for (const workload of config.workloads)
      await verify(targetFor(base, info.trailingSlash, workload, session), workload, config.server);
    if (options.startupFromLoad && config.scenario.startsWith("routes-")) {
      results.starts.push({
        round: 0,
        server: config.server,
        scenario: config.scenario,
        startupMs: performance.now() - proc.spawnedAt,
        timings: proc.timings,
      });
    }
    return { config, proc, base, session };
  } catch (error) {
    await proc.stop();
    throw error;
  }
}

/** Times process spawn to the first answered request of a configuration (a fresh process). */
async function timeStartup(
  config: Configuration,
  round: number,
  results: RawResults,
  log: (line: string) => void,
): Promise<void> {
  const info = serverInfo(config.server);
  let proc: ServerProcess | undefined;
  try {
    proc = await startServer({ server: config.server, scenario: config.scenario, core: SERVER_CORE });
    const workload = config.workloads[0]!;
    await verify(targetFor(`http://127.0.0.1:${proc.port}`, info.trailingSlash, workload, {}), workload, config.server);
    const startupMs = performance.now() - proc.spawnedAt;
    results.starts.push({ round, server: config.server, scenario: config.scenario, startupMs, timings: proc.timings });
    log(
      `  r${round + 1} start-up ${config.server} ${config.scenario}: first answer after ${startupMs.toFixed(0)} ms (app build ${(proc.timings["appBuild"] ?? Number.NaN).toFixed(1)} ms)`,
    );
  } catch (error) {
    results.failures.push({
      server: config.server,
      scenario: `start-${config.scenario}`,
      error: firstLines((error as Error).message),
    });
  } finally {
    await proc?.stop();
  }
}

const firstLines = (message: string) => message.split("\n").slice(0, 4).join(" | ");

/** The scenario groups: servers of one group run at the same time and are loaded in turn. */
function groupsOf(configs: readonly Configuration[]): Configuration[][] {
  const key = (c: Configuration) => scenarioGroup(c.scenario);
  const groups = new Map<string, Configuration[]>();
  for (const config of configs) groups.set(key(config), [...(groups.get(key(config)) ?? []), config]);
  return [...groups.values()];
}

/**
 * Runs one group: starts its servers (each pinned to core 0, idle while another is loaded), then
 * per round loads each workload on each server in turn (a warm-up before the first round), the
 * order rotating from round to round, so that every ratio compares runs made close together.
 */
async function runGroup(
  group: readonly Configuration[],
  options: BenchOptions,
  results: RawResults,
  log: (line: string) => void,
): Promise<void> {
  let live: Live[] = [];
  const answered = new Map<Live, number>();
  // Fresh processes every round (the `production` and `db` scenarios by default): each round is then its own start-up.
  const fresh = options.freshScenarios.includes(scenarioGroup(group[0]!.scenario));
  const bringAllUp = async () => {
    const up: Live[] = [];
    for (const config of group) {
      try {
        up.push(await bringUp(config, options, results));
      } catch (error) {
        results.failures.push({
          server: config.server,
          scenario: config.scenario,
          error: firstLines((error as Error).message),
        });
        log(`  ${config.server} ${config.scenario}: FAILED ${firstLines((error as Error).message)}`);
      }
    }
    return up;
  };
  try {
    live = await bringAllUp();
    const warmed = new Set<Live>();
    for (let round = 0; round < options.rounds; round++) {
      if (fresh && round > 0) {
        for (const l of live) await l.proc.stop();
        live = await bringAllUp();
      }
      const firstOfProcess = round === 0 || fresh;
      const slots = live.flatMap((l) => l.config.workloads.map((workload) => ({ live: l, workload })));
      const workloadNames = [...new Set(slots.map((s) => s.workload.name))];
      for (const name of workloadNames) {
        const here = slots.filter((s) => s.workload.name === name);
        for (const { live: l, workload } of roundOrder(here, round, options.rounds)) {
          const info = serverInfo(l.config.server);
          const target = targetFor(l.base, info.trailingSlash, workload, l.session);
          if (firstOfProcess && (options.warmupEach || !warmed.has(l))) {
            const warm = await runLoad(target, {
              connections: options.connections,
              duration: options.warmup,
              loader: options.loader,
            });
            answered.set(l, (answered.get(l) ?? 0) + warm.requests);
          }
          warmed.add(l);
          const cpuBefore = cpuSeconds(l.proc.pid);
          const load = await runLoad(target, {
            connections: options.connections,
            duration: options.duration,
            loader: options.loader,
          });
          const cpuUs = ((cpuSeconds(l.proc.pid) - cpuBefore) / load.requests) * 1e6;
          answered.set(l, (answered.get(l) ?? 0) + load.requests);
          const rss = rssMiB(l.proc.pid);
          results.runs.push({
            round,
            server: l.config.server,
            scenario: l.config.scenario,
            workload: workload.name,
            ...load,
            rssMiB: rss,
            cpuUs,
          });
          log(
            `  r${round + 1} ${l.config.server.padEnd(10)} ${l.config.scenario.padEnd(12)} ${workload.name.padEnd(12)} ${load.rps.toFixed(0).padStart(7)} req/s  p99 ${load.p99.toFixed(1).padStart(6)} ms  RSS ${rss.toFixed(1)} MiB  CPU ${cpuUs.toFixed(0).padStart(4)} us/req${load.bad ? `  (${load.bad} bad answers!)` : ""}`,
          );
        }
      }
    }
  } finally {
    for (const l of live) await l.proc.stop();
  }
  if (options.profile) for (const l of live) logProfile(l.config, answered.get(l) ?? 0, log);
}

/** Runs the whole bench: start-ups, route-table builds and scaffold start-ups per round, then each scenario group. */
export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<RawResults> {
  const results: RawResults = { runs: [], starts: [], tables: [], scaffolds: [], workers: [], failures: [] };
  const configs = configurations(options);
  await warmFetch();
  const routeConfigs = configs.filter(
    (c) =>
      c.scenario.startsWith("routes-") && options.startupSizes.includes(Number(c.scenario.slice("routes-".length))),
  );
  for (let round = 0; round < options.startupRounds; round++) {
    if (routeConfigs.length === 0 && !options.scaffold) break;
    log(`start-up round ${round + 1} of ${options.startupRounds}`);
    for (const config of roundOrder(routeConfigs, round, options.startupRounds)) {
      const routes = Number(config.scenario.slice("routes-".length));
      try {
        const ms = await measureTableInProcess(config.server, routes, SERVER_CORE);
        results.tables.push({ round, server: config.server, routes, ms });
      } catch (error) {
        results.failures.push({
          server: config.server,
          scenario: `table-${routes}`,
          error: firstLines((error as Error).message),
        });
      }
      if (!options.startupFromLoad) await timeStartup(config, round, results, log);
    }
    if (options.scaffold)
      results.scaffolds.push(
        ...(await measureScaffolds(round, options.servers, options.scaffoldModes, SERVER_CORE, log)),
      );
  }
  for (const group of groupsOf(configs)) {
    log(
      `load: ${group[0]!.scenario.startsWith("routes-") ? "route counts" : group[0]!.scenario} (${group.map((c) => `${c.server}/${c.scenario}`).join(", ")})`,
    );
    await runGroup(group, options, results, log);
  }
  if (options.scenarios.includes("workers") && options.servers.includes("fw-a")) {
    log("load: fw-a start --workers 1 and --workers 2 (built scaffolded app, production)");
    try {
      results.workers!.push(...(await measureWorkers(options, log)));
    } catch (error) {
      results.failures.push({ server: "fw-a", scenario: "workers", error: firstLines((error as Error).message) });
      log(`  fw-a workers: FAILED ${firstLines((error as Error).message)}`);
    }
  }
  return results;
}
