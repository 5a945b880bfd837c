/**
 * Running a generated app outside the repository, for the resource generator's cases: its own
 * commands in a clean environment, its server on a free port, Chromium where the tests look for it.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";

/** Chromium's path (CHROMIUM_PATH, else Debian's). */
export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

/** The flags every browser case launches Chromium with. */
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-background-networking"];

/**
 * The environment of the app's own commands. Its test run reports in TAP, which the cases read:
 * Node 24 prints its spec reporter ("ℹ fail 0") to a child whose output is not a terminal where
 * Node 20 and 22 print TAP.
 */
export const cleanEnv = (): NodeJS.ProcessEnv => {
  const vars: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "--test-reporter=tap", FW_TS_LOADER: "" };
  delete vars["NODE_TEST_CONTEXT"];
  delete vars["APP_ENV"];
  return vars;
};

// Each test's timeout comes from the work it does, with a budget per unit sized for a 2-core
// machine under heavy load (a load average of 20 to 30 makes each step ten to twenty times slower
// than on a quiet machine), never from how long it takes on a quiet one: one run of the CLI (Node,
// tsx and the app loaded, 3 s when quiet, up to 58 s seen at a load average of 30), one npm command of the app (a type-check or its test suite,
// 15 s when quiet), and the development server's start.
/** The budget of one run of the framework's CLI. */
export const CLI_RUN_MS = 90_000;
/** The budget of one npm command of the app (a type-check, its test suite). */
export const NPM_COMMAND_MS = 300_000;
/** The budget of the development server's start (and Chromium's). */
export const SERVE_MS = 120_000;
/** A test's or hook's timeout for `runs` runs of the CLI and `commands` npm commands of the app. */
export const budget = (runs: number, commands = 0) => ({ timeout: runs * CLI_RUN_MS + commands * NPM_COMMAND_MS });

/** Runs a shell command in the app folder `cwd` (npm test, tsc). */
export const sh = (cwd: string, command: string) =>
  spawnSync("sh", ["-c", command], { cwd, encoding: "utf8", env: cleanEnv(), timeout: NPM_COMMAND_MS });

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A generated app's server, started with its framework's serve command. */
export interface ServedApp {
  readonly base: string;
  /** What it printed so far. */
  output(): string;
  stop(): void;
}

/**
 * Starts the app at `cwd` with `bin serve --port <free> --no-reload` and waits (at most
 * {@link SERVE_MS}) until `ready` (a path) answers 200; fails with what the server printed when it
 * does not.
 */
export async function serveApp(bin: string, serve: string, cwd: string, ready: string): Promise<ServedApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let output = "";
  const server: ChildProcess = spawn(process.execPath, [bin, serve, "--port", String(port), "--no-reload"], {
    cwd,
    env: cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (chunk) => (output += chunk));
  server.stderr!.on("data", (chunk) => (output += chunk));
  const app: ServedApp = { base, output: () => output, stop: () => void server.kill("SIGTERM") };
  const deadline = Date.now() + SERVE_MS;
  for (;;) {
    const up = await fetch(`${base}${ready}`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (up) return app;
    if (Date.now() > deadline || server.exitCode !== null) {
      app.stop();
      throw new Error(`the app did not serve ${ready}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
