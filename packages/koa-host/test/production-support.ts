// Helpers of the production tests: the fixture CLI as a child process, free ports, waiting.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** The fixture app folder and its CLI (the shared production commands under a framework-like CLI). */
export const fixtureRoot = fileURLToPath(new URL("./production-app/", import.meta.url));
const cli = fileURLToPath(new URL("./production-app/cli.ts", import.meta.url));

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A running fixture CLI: its output so far, a wait for a line, and its exit. */
export interface Running {
  readonly child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, what?: string): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the fixture CLI (`node --import tsx cli.ts ...args`) in the fixture folder. */
export function runFixture(args: readonly string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", cli, ...args], {
    cwd: fixtureRoot,
    env: { ...process.env, SECRET_KEY: "production-test-secret-key-0123456789", APP_ENV: "", NODE_OPTIONS: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, what = String(pattern)) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text);
          if (match) {
            listeners.delete(check);
            resolve(match[0]);
          }
        };
        listeners.add(check);
        check();
        void exited.then(({ code, signal }) => {
          if (listeners.has(check)) {
            listeners.delete(check);
            reject(new Error(`the process exited (${code ?? signal}) before printing ${what}; its output:\n${text}`));
          }
        });
      });
    },
  };
}

/** GET a path; a failed connection is reported as status 0 (the tests count failures, not time). */
export async function get(url: string, init: RequestInit = {}): Promise<{ status: number; text: string; headers: Headers }> {
  try {
    const res = await fetch(url, { ...init, headers: { Connection: "close", ...(init.headers as Record<string, string> | undefined) } });
    return { status: res.status, text: await res.text(), headers: res.headers };
  } catch {
    return { status: 0, text: "", headers: new Headers() };
  }
}

/** Waits until `fn` returns a value other than undefined (polling, with an overall limit). */
export async function eventually<T>(what: string, fn: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}
