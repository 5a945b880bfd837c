/**
 * Attacks through the generated HAProxy config (the app runs with `trustProxy: 1`, as the
 * generated compose and Kubernetes files set it): forged X-Forwarded-For entries must not become
 * the client address the app logs and limits by, a forged Host is refused before it reaches the
 * app, and a client's X-Request-Id never becomes the id of the request's log line.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { deployTarget, haproxyConfig } from "@fwkit/cli";
import type { Target } from "../target.js";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A GET with exactly these headers (Host included); status 0 when the connection failed. */
function get(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { Connection: "close", ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error("no answer within 30 s")));
    req.on("error", () => resolve({ status: 0, headers: {} }));
    req.end();
  });
}

/** The request log lines (JSON) the app wrote for `path`. */
function linesFor(app: Target, path: string): Array<Record<string, unknown>> {
  return app
    .log()
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes(`"path":"${path}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Registers the proxy cases: the generated HAProxy config is started in front of `target()`. */
export function proxyCases(target: () => Target): void {
  let haproxy: ChildProcess | undefined;
  let port = 0;
  let output = "";
  const dir = mkdtempSync(join(tmpdir(), "security-suite-haproxy-"));
  before(async () => {
    const app = target();
    port = await freePort();
    const appPort = new URL(app.url).port;
    const file = join(dir, "haproxy.cfg");
    // The generated file as the deploy command writes it, pointed at this app, TLS left to the deployment.
    writeFileSync(
      file,
      haproxyConfig(deployTarget(app.root, app.framework, { hosts: ["127.0.0.1"] }), {
        bind: `127.0.0.1:${port}`,
        servers: [`127.0.0.1:${appPort}`],
        tls: false,
        checkIntervalSeconds: 1,
      }),
    );
    haproxy = spawn("haproxy", ["-f", file, "-db"], { stdio: ["ignore", "pipe", "pipe"] });
    haproxy.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    haproxy.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    haproxy.on(
      "error",
      (error) => (output += `haproxy could not start (apt-get install -y haproxy): ${error.message}`),
    );
    for (let tries = 0; (await get(port, "/healthz", { Host: "127.0.0.1" })).status !== 200; tries++) {
      if (tries > 150 || haproxy.exitCode !== null) assert.fail(`HAProxy did not pass requests to the app:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  after(() => {
    haproxy?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  test("forged X-Forwarded-For through the generated HAProxy: every request is the address HAProxy saw", async () => {
    const app = target();
    const paths = [1, 2, 3, 4].map((n) => `/__suite-forged-xff-${n}`);
    for (const [index, path] of paths.entries()) {
      await get(port, path, { Host: "127.0.0.1", "X-Forwarded-For": `198.51.100.${index + 1}` });
    }
    await app.markLog();
    const ips = paths.map((path) => linesFor(app, path)[0]?.["ip"]);
    assert.deepEqual(
      ips,
      ["127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"],
      "the per-address limits count the real address, not one the client chose",
    );
  });

  test("a forged Host through the generated HAProxy is refused before it reaches the app", async () => {
    const app = target();
    const path = "/__suite-forged-host";
    const answer = await get(port, path, { Host: "evil.example" });
    assert.equal(answer.status, 421);
    await app.markLog();
    assert.deepEqual(linesFor(app, path), [], "the app never saw the request");
  });

  test("a client's X-Request-Id through the generated HAProxy is replaced by the balancer's", async () => {
    const app = target();
    const path = "/__suite-forged-request-id";
    const answer = await get(port, path, { Host: "127.0.0.1", "X-Request-Id": "someone-elses-request" });
    assert.notEqual(answer.headers["x-request-id"], "someone-elses-request");
    await app.markLog();
    const [line] = linesFor(app, path);
    assert.ok(line, `the app logged ${path}`);
    assert.notEqual(line["reqId"], "someone-elses-request");
    assert.equal(line["reqId"], answer.headers["x-request-id"]);
  });
}
