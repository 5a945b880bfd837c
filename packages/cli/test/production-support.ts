// Helpers of the production tests: the fixture CLI as a child process, free ports, waiting. Every
// wait here is bounded and its failure names what it waited for, with the child's recent output:
// a hang is a clear failure, never a silent test-file timeout.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** The fixture app folder and its CLI (the shared production commands under a framework-like CLI). */
const fixtureRoot = fileURLToPath(new URL("./production-app/", import.meta.url));
const cli = fileURLToPath(new URL("./production-app/cli.ts", import.meta.url));

/** How long one step may wait (a worker boot through tsx on a busy 2-core machine takes seconds). */
export const STEP_MS = 60_000;
/** How long one request may take before it counts as hung. */
export const REQUEST_MS = 30_000;

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves like `promise`, or fails naming `what` after `ms` (with `context()` appended). */
export function within<T>(
  what: string,
  promise: Promise<T>,
  ms = STEP_MS,
  context: () => string = () => "",
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`waiting for ${what} timed out after ${ms / 1000} s${context()}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A running fixture CLI: its output so far, bounded waits for a line and for its exit. */
export interface Running {
  readonly child: ChildProcess;
  output(): string;
  /** The last lines of output, for failure messages. */
  recent(lines?: number): string;
  /** Waits for output matching `pattern`; fails after `ms` or when the process exits first. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  /** Waits for the process to exit; fails after `ms` naming `what`. */
  exit(what: string, ms?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILLs the process and its workers (its process group). */
  kill(): void;
}

const running = new Set<Running>();

/** Kills every fixture process still running, workers included (an `after` hook of each file). */
export function killAll(): void {
  for (const run of running) run.kill();
}
process.once("exit", killAll);

/**
 * Runs the fixture CLI (`node --import tsx cli.ts ...args`) in the fixture folder (or `cwd`);
 * `loader` replaces `--import tsx` (a module that registers tsx through its API, as a framework's
 * executable does, leaves no loader flag for the cluster's workers to inherit).
 */
export function runFixture(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd = fixtureRoot,
  loader: readonly string[] = ["--import", "tsx"],
): Running {
  const child = spawn(process.execPath, ["--conditions=source", ...loader, cli, ...args], {
    cwd,
    env: { ...process.env, SECRET_KEY: crypto.randomUUID(), APP_ENV: "", NODE_OPTIONS: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: the cleanup kills the cluster workers with the primary.
    detached: true,
  });
  let text = "";
  let status: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  // "close": the process exited and its output (workers' included) is all in.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => {
      status = { code, signal };
      for (const listener of listeners) listener();
      resolve(status);
    }),
  );
  const recent = (lines = 30) =>
    text
      .split("\n")
      .slice(-lines - 1)
      .join("\n");
  const context = () => `; the child's recent output:\n${recent()}`;
  const run: Running = {
    child,
    output: () => text,
    recent,
    waitFor(pattern, ms = STEP_MS) {
      const what = `'${pattern.source}'`;
      let check = () => {};
      const seen = new Promise<string>((resolve, reject) => {
        check = () => {
          const match = pattern.exec(text);
          if (match) resolve(match[0]);
          else if (status)
            reject(
              new Error(`the process exited (${status.code ?? status.signal}) before printing ${what}${context()}`),
            );
        };
        listeners.add(check);
        check();
      });
      return within(what, seen, ms, context).finally(() => listeners.delete(check));
    },
    exit: (what, ms = STEP_MS) => within(what, exited, ms, context),
    kill() {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    },
  };
  running.add(run);
  void exited.then(() => running.delete(run));
  return run;
}

/** A response, or status 0 with the reason when the connection failed or the request hung. */
export interface Got {
  readonly status: number;
  readonly text: string;
  readonly headers: Headers;
  readonly error?: string;
}

/** GET a path, within `REQUEST_MS` (a hung request is reported as status 0, not waited for). */
export async function get(url: string, init: RequestInit = {}): Promise<Got> {
  try {
    const res = await fetch(url, {
      ...init,
      headers: { Connection: "close", ...(init.headers as Record<string, string> | undefined) },
      signal: AbortSignal.timeout(REQUEST_MS),
    });
    return { status: res.status, text: await res.text(), headers: res.headers };
  } catch (error) {
    const reason =
      (error as Error)?.name === "TimeoutError"
        ? `no answer within ${REQUEST_MS / 1000} s`
        : String((error as Error)?.cause ?? error);
    return { status: 0, text: "", headers: new Headers(), error: `GET ${url}: ${reason}` };
  }
}

/** Waits until `fn` returns a value other than undefined (polling, with an overall limit). */
export async function eventually<T>(what: string, fn: () => Promise<T | undefined>, ms = STEP_MS): Promise<T> {
  let last: unknown;
  let done = false;
  const poll = async () => {
    while (!done) {
      try {
        const value = await fn();
        if (value !== undefined) return value;
      } catch (error) {
        last = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return undefined as never;
  };
  return within(what, poll(), ms, () => (last ? `; the last error: ${String(last)}` : "")).finally(() => {
    done = true;
  });
}
