/**
 * Scale-out: two app processes share the Redis session store, so a user who logs in through one
 * is logged in on the other (docs/deployment.md, "Scaling out").
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { Redis } from "ioredis";
import { requireServer, serverSkip, serverUrls } from "@fwkit/test-servers";
import { HttpClient } from "@fwkit/test-servers";

const prefix = `sess_twoproc_${process.pid}_${Date.now().toString(36)}:`;
const fixture = fileURLToPath(new URL("./fixtures/redis-app.ts", import.meta.url));
const children: ChildProcess[] = [];
let started: Promise<[string, string]> | undefined;

/** Processes A and B on the same Redis prefix, started once for the file's tests. */
function bothProcesses(): Promise<[string, string]> {
  const sessionUrl = `${serverUrls.redis}?prefix=${encodeURIComponent(prefix)}`;
  return (started ??= Promise.all([startProcess("A", sessionUrl), startProcess("B", sessionUrl)]));
}

/** Starts one app process and resolves with its URL. */
function startProcess(name: string, sessionUrl: string): Promise<string> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", fixture, sessionUrl, name], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    // Only ends a hang: a process loading the app through tsx takes many times longer on a busy machine.
    const timer = setTimeout(() => reject(new Error(`app process ${name} did not start within 180 s`)), 180_000);
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
    const [first, second] = await bothProcesses();
    const onA = new HttpClient(first);
    const { token } = (await onA.get("/form")).json<{ token: string }>();
    const signIn = await onA.post("/sign-in", { form: { user: "1", _csrf_token: token } });
    assert.equal(signIn.status, 200, signIn.text);
    assert.deepEqual(signIn.json(), { ok: true, process: "A" });

    const onB = new HttpClient(second);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    const me = (await onB.get("/me")).json<{ user: string; process: string; pid: number }>();
    assert.equal(me.process, "B");
    assert.equal(me.user, "alice", "process B sees the login made through process A");
    const meOnA = (await onA.get("/me")).json<{ pid: number }>();
    assert.notEqual(me.pid, meOnA.pid, "two distinct processes answered");
  });

  test("failed logins by any of an account's names count once across both processes", async () => {
    await requireServer("redis");
    const [first, second] = await bothProcesses();
    const tryLogin = async (url: string, identifier: string, password: string) => {
      const client = new HttpClient(url);
      const { token } = (await client.get("/form")).json<{ token: string }>();
      return client.post("/log-in", { form: { identifier, password, _csrf_token: token } });
    };
    const names: Array<[string, string]> = [
      [first, "bob"],
      [second, "BOB@example.test"],
      [first, " Bob "],
      [second, "bob@example.test"],
    ];
    for (const [url, identifier] of names)
      assert.equal((await tryLogin(url, identifier, "guess")).status, 401, identifier);
    const limited = await tryLogin(first, "bob", "builder");
    assert.equal(limited.status, 429, "the fifth try, on either process and by any name, is refused");
    assert.equal((await tryLogin(second, "bob@example.test", "builder")).status, 429);
  });
});
