// Shared by the tests: a unique Redis key prefix per test, waiting for a condition, and worker
// processes run from fixtures/worker.ts.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";

export const here = dirname(fileURLToPath(import.meta.url));

/** A key prefix no other test (nor another run) uses. */
export function uniquePrefix(label: string): string {
  return `fwjobs-test-${label}-${randomBytes(4).toString("hex")}`;
}

/** Resolves once `check()` is true; fails naming `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  // Only ends a hang: what a test waits for comes as soon as it happens, and a busy machine
  // (a load average of 20 on 2 cores) can take many times longer than a quiet one.
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Deletes every key under `prefix` (the test's queues and records). */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

/** A worker process running fixtures/worker.ts. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Its output so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once it has exited. */
  readonly exited: Promise<number | string>;
}

/** Starts fixtures/worker.ts with `env` and resolves once it says it is ready. */
export async function startWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", join(here, "fixtures", "worker.ts")],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const worker = { child, output: () => text, exited };
  await Promise.race([
    waitFor("the worker to be ready", () => text.includes("worker ready"), 120_000),
    exited.then((code) => {
      throw new Error(`the worker exited (${code}) before it was ready:\n${text}`);
    }),
  ]);
  return worker;
}
