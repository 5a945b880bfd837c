import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createConnection, createServer } from "node:net";

/** A redis-server of the test's own, on 127.0.0.1, that the test can stop and start again on the same port. */
export interface RedisProcess {
  /** `redis://127.0.0.1:<port>/0`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (the data goes: nothing is saved). */
  stop(): Promise<void>;
  /** Starts it again on the same port (after {@link stop}). */
  start(): Promise<void>;
  /** Stops it for good. */
  close(): Promise<void>;
}

const START = "apt-get install -y redis-server";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts a redis-server (the binary on PATH) on a free port of 127.0.0.1, for outage tests that
 * must stop and restart Redis without touching the machine's shared one. Fails naming the binary
 * and how to install it when it is missing.
 */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    if (child && child.exitCode === null) return;
    const spawned = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    child = spawned;
    const failed = new Promise<never>((_, reject) =>
      spawned.once("error", (error) =>
        reject(new Error(`redis-server could not be started (${error.message}). Install it with: ${START}`)),
      ),
    );
    // Waits for the port to answer; the deadline only ends a hang on a busy machine.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (await Promise.race([answers(port), failed])) return;
      if (spawned.exitCode !== null) assert.fail(`redis-server exited with ${spawned.exitCode} on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.fail(`redis-server did not answer on 127.0.0.1:${port}`);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGTERM");
    await exited;
  };
  await start();
  process.once("exit", () => child?.kill("SIGTERM"));
  return { url: `redis://127.0.0.1:${port}/0`, port, start, stop, close: stop };
}
