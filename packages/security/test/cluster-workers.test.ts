/**
 * The failed-login limits under a real `start --workers 2` with signed-cookie sessions (no shared
 * store): the node's cluster primary keeps the counters, so the limit of 5 per account holds for
 * the node, not 5 per worker. Run in the heavy lock (it starts a cluster).
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { createServer } from "node:net";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("./fixtures/cluster-app/", import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One request on its own connection (no keep-alive: the cluster hands each connection to the next worker). */
function send(
  port: number,
  method: string,
  path: string,
  form?: Record<string, string>,
): Promise<{ status: number; worker: string; text: string }> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: body
          ? { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) }
          : {},
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, worker: String(res.headers["x-worker"] ?? ""), text }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("failed-login limits across the workers of start --workers 2", () => {
  let child: ChildProcess | undefined;
  after(() => {
    // The primary and its workers: their own process group.
    if (child?.pid) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });

  test("cookie sessions, no Redis: 5 failures for the node, then 429 even with the right password", {
    // A cluster's start (180 s at most on a busy machine, below) and a dozen requests.
    timeout: 300_000,
  }, async () => {
    const port = await freePort();
    child = spawn(
      process.execPath,
      [
        "--conditions=source",
        "--import",
        "tsx",
        "cli.ts",
        "start",
        "--workers",
        "2",
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
      ],
      {
        cwd: root,
        env: { ...process.env, SECRET_KEY: crypto.randomUUID(), APP_ENV: "", NODE_OPTIONS: "" },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      },
    );
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`start --workers 2 did not serve within 180 s:\n${output}`)),
        180_000,
      );
      const check = () => {
        if (/Serving on http:\/\/127\.0\.0\.1:\d+ with 2 workers/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child!.stdout!.on("data", check);
      child!.once("exit", (code) => reject(new Error(`start exited (${code}):\n${output}`)));
    });
    const answers: Array<{ status: number; worker: string }> = [];
    for (let i = 0; i < 10; i++)
      answers.push(await send(port, "POST", "/login", { account: "alice", password: `wrong-${i}` }));
    const workers = new Set(answers.map((answer) => answer.worker).filter(Boolean));
    assert.equal(workers.size, 2, `both workers answered failures: ${JSON.stringify(answers)}`);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [401, 401, 401, 401, 401, 429, 429, 429, 429, 429],
      `the limit of 5 holds for the node:\n${output.slice(-2000)}`,
    );
    for (let i = 0; i < 2; i++) {
      const right = await send(port, "POST", "/login", { account: "alice", password: "wonderland" });
      assert.equal(right.status, 429, "over the limit, the right password is refused on every worker");
      assert.ok(Number(/Try again in (\d+)/.exec(right.text)?.[1]) >= 1, right.text);
    }
  });
});
