import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { E_BENCH_RUN } from "./errors.js";
import { pinned } from "./processes.js";
import { BENCH_SECRET } from "./servers/framework.js";

/** One start-up of a freshly scaffolded app. */
export interface ScaffoldRecord {
  readonly round: number;
  readonly framework: string;
  /** `no-reload` (`serve --no-reload`, one process) or `reload` (the default dev server, app in a child). */
  readonly mode: "no-reload" | "reload";
  /** CLI process spawn to the first 200 on `/`, ms (NaN when it never answered). */
  readonly ms: number;
}

/** The CLI commands of each framework the bench runs. */
export const FRAMEWORKS = {
  "fw-a": { init: "gen:init", serve: "gen:serve", build: "gen:build", migrate: "db:migrate" },
  "fw-b": { init: ":init", serve: ":serve", build: ":build", migrate: ":migrate" },
} as const;

const apps = new Map<string, string>();
process.once("exit", () => {
  for (const dir of apps.values()) rmSync(dir, { recursive: true, force: true });
});

/** The framework's CLI script (`bin/<framework>.js`). */
export function binOf(framework: keyof typeof FRAMEWORKS): string {
  const pkg = fileURLToPath(import.meta.resolve(`${framework}/package.json`));
  return join(dirname(pkg), "bin", `${framework}.js`);
}

/** Scaffolds an app with the framework's own CLI, once per bench process (removed at exit). */
export function scaffolded(framework: keyof typeof FRAMEWORKS): string {
  const existing = apps.get(framework);
  if (existing) return existing;
  const dir = mkdtempSync(join(tmpdir(), `bench-${framework}-app-`));
  apps.set(framework, dir);
  const result = spawnSync(process.execPath, [binOf(framework), FRAMEWORKS[framework].init], {
    cwd: dir,
    encoding: "utf8",
  });
  if (result.status !== 0)
    throw new E_BENCH_RUN(`${framework} ${FRAMEWORKS[framework].init}`, `failed: ${result.stderr || result.stdout}`);
  return dir;
}

/** The environment of a production start of a scaffolded app: production mode, the bench's secret, no inherited Node options. */
export const productionEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  APP_ENV: "production",
  NODE_ENV: "production",
  SECRET_KEY: BENCH_SECRET,
  NODE_OPTIONS: "",
});

const built = new Set<string>();

/** Scaffolds (once per bench process), builds and migrates the framework's app with its own CLI; returns its folder. */
export function builtApp(framework: keyof typeof FRAMEWORKS): string {
  const dir = scaffolded(framework);
  if (built.has(framework)) return dir;
  for (const command of [FRAMEWORKS[framework].build, FRAMEWORKS[framework].migrate]) {
    const result = spawnSync(process.execPath, [binOf(framework), command], {
      cwd: dir,
      encoding: "utf8",
      env: productionEnv(),
    });
    if (result.status !== 0)
      throw new E_BENCH_RUN(`${framework} ${command}`, `failed: ${(result.stderr || result.stdout).slice(0, 2000)}`);
  }
  built.add(framework);
  return dir;
}

/** A port nothing listens on (127.0.0.1). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the scaffolded app with its CLI, pinned to `core`, and times spawn -> first 200 on `/`. */
async function timeStart(
  framework: keyof typeof FRAMEWORKS,
  mode: ScaffoldRecord["mode"],
  core: number | undefined,
): Promise<number> {
  const port = await freePort();
  const cli = [
    binOf(framework),
    FRAMEWORKS[framework].serve,
    "--port",
    String(port),
    ...(mode === "no-reload" ? ["--no-reload"] : []),
  ];
  return spawnToFirst200(cli, {
    core,
    cwd: scaffolded(framework),
    env: { ...process.env, APP_ENV: "development" },
    port,
    timeoutMs: 30_000,
    stopMs: 5000,
  });
}

/** How {@link spawnToFirst200} runs a command. */
export interface FirstAnswerOptions {
  readonly core: number | undefined;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The port the command serves on; `/` is asked until it answers 200. */
  readonly port: number;
  /** Give up (NaN) after this long. */
  readonly timeoutMs: number;
  /** After SIGTERM, SIGKILL once this long has passed. */
  readonly stopMs: number;
}

/** Spawns `node <cli>` pinned to `core` and times it to the first 200 on `/`, in ms (NaN when none came); then stops it. */
export async function spawnToFirst200(cli: readonly string[], o: FirstAnswerOptions): Promise<number> {
  const { command, args } = pinned(o.core, cli);
  const started = performance.now();
  const child = spawn(command, args, { cwd: o.cwd, stdio: "ignore", env: o.env });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let ms = Number.NaN;
  try {
    while (performance.now() - started < o.timeoutMs && child.exitCode === null) {
      try {
        const response = await fetch(`http://127.0.0.1:${o.port}/`);
        await response.arrayBuffer();
        if (response.status === 200) {
          ms = performance.now() - started;
          break;
        }
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), o.stopMs);
    await exited;
    clearTimeout(timer);
  }
  return ms;
}

/** Start-up of a scaffolded fw-a and fw-b app in the given serve modes, once (one round). */
export async function measureScaffolds(
  round: number,
  servers: readonly string[],
  modes: ReadonlyArray<ScaffoldRecord["mode"]>,
  core: number | undefined,
  log: (line: string) => void,
): Promise<ScaffoldRecord[]> {
  const out: ScaffoldRecord[] = [];
  for (const framework of ["fw-a", "fw-b"] as const) {
    if (!servers.includes(framework)) continue;
    for (const mode of modes) {
      try {
        const ms = await timeStart(framework, mode, core);
        out.push({ round, framework, mode, ms });
        log(`  r${round + 1} scaffolded ${framework} app (${mode}): first answer after ${ms.toFixed(0)} ms`);
      } catch (error) {
        log(`  r${round + 1} scaffolded ${framework} app (${mode}): FAILED ${(error as Error).message.split("\n")[0]}`);
        out.push({ round, framework, mode, ms: Number.NaN });
      }
    }
  }
  return out;
}
