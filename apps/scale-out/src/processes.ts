// Child processes with their output kept, free ports, and polling: what every scale-out test uses.
import assert from "node:assert/strict";
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { createServer } from "node:net";

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A child process whose output is kept; `waitFor` resolves when a line matches. */
export interface Proc {
  readonly child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, what?: string): Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `command` with its output collected (and echoed when SCALE_OUT_VERBOSE=1). */
export function launch(command: string, args: readonly string[], options: SpawnOptions = {}): Proc {
  const child = spawn(command, [...args], { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
    if (process.env["SCALE_OUT_VERBOSE"] === "1") process.stderr.write(chunk);
    for (const listener of [...listeners]) listener();
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => {
      text += `\n${error.message}`;
      resolve({ code: -1, signal: null });
    });
  });
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, what = String(pattern)) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text);
          if (!match) return;
          listeners.delete(check);
          resolve(match[0]);
        };
        listeners.add(check);
        check();
        void exited.then(({ code, signal }) => {
          if (!listeners.delete(check)) return;
          reject(
            new Error(
              `${command} exited (${code ?? signal}) before printing ${what}; its output:\n${text.slice(-4000)}`,
            ),
          );
        });
      });
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
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
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}
