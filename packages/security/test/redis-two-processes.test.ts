/**
 * Scale-out: two app processes share the Redis session store, so a user who logs in through one
 * is logged in on the other (DESIGN.md, Scale-out).
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { Redis } from "ioredis";
import { requireServer, serverSkip, serverUrls } from "test-servers";
import { Client } from "./helpers/client.js";

const prefix = `sess_twoproc_${process.pid}_${Date.now().toString(36)}:`;
const fixture = fileURLToPath(new URL("./fixtures/redis-app.ts", import.meta.url));
const children: ChildProcess[] = [];

/** Starts one app process and resolves with its URL. */
function startProcess(name: string, sessionUrl: string): Promise<string> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", fixture, sessionUrl, name], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app process ${name} did not start within 30 s`)), 30_000);
    child.once("exit", (code) => reject(new Error(`app process ${name} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
  });
}

describe("two app processes sharing the Redis store", serverSkip, () => {
  after(async () => {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
    }
    const redis = new Redis(serverUrls.redis);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  test("a user logged in through one process is logged in on the other", async () => {
    await requireServer("redis");
    const sessionUrl = `${serverUrls.redis}?prefix=${encodeURIComponent(prefix)}`;
    const [first, second] = await Promise.all([startProcess("A", sessionUrl), startProcess("B", sessionUrl)]);
    const onA = new Client(first);
    const { token } = (await onA.get("/form")).json<{ token: string }>();
    const signIn = await onA.post("/sign-in", { form: { user: "1", _csrf_token: token } });
    assert.equal(signIn.status, 200, signIn.text);
    assert.deepEqual(signIn.json(), { ok: true, process: "A" });

    const onB = new Client(second);
    for (const [name, value] of onA.jar) onB.jar.set(name, value);
    const me = (await onB.get("/me")).json<{ user: string; process: string; pid: number }>();
    assert.equal(me.process, "B");
    assert.equal(me.user, "alice", "process B sees the login made through process A");
    const meOnA = (await onA.get("/me")).json<{ pid: number }>();
    assert.notEqual(me.pid, meOnA.pid, "two distinct processes answered");
  });
});
