// `start` when a process dies under it: the primary killed with requests in flight (its workers
// finish them, then exit), a worker killed while connections are handed to it (none is left
// hanging), a rolling restart that stops at an unready worker, a SIGHUP that comes during a rolling
// restart, a SIGTERM or SIGKILL while the workers still boot, and a refused start exiting in every
// worker mode.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { after } from "node:test";
import { eventually, freePort, get, killAll, runFixture } from "./production-support.js";

const TEST_MS = 150_000;
after(killAll);

/** True while a process with this pid exists. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("the primary killed with requests in flight", () => {
  test("its workers stop accepting, finish every request in flight with 200, log why, then exit", {
    timeout: TEST_MS,
  }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"]);
    await app.waitFor(/with 2 workers/);
    const inFlight = [1, 2, 3, 4].map(() => get(`${base}/slow/3000`));
    await eventually("four slow requests in flight", async () =>
      (app.output().match(/slow request started/g) ?? []).length >= 4 ? true : undefined,
    );
    const workers = [
      ...new Set([...app.output().matchAll(/slow request started in (\d+)/g)].map((match) => Number(match[1]))),
    ];
    process.kill(app.child.pid!, "SIGKILL");
    const answers = await Promise.all(inFlight);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200, 200],
      answers.map((answer) => answer.error ?? "").join("; ") + app.recent(),
    );
    // Nothing takes new requests on the port once the primary is gone.
    assert.equal((await get(`${base}/pid`)).status, 0);
    await eventually("the workers to exit", async () => (workers.every((pid) => !alive(pid)) ? true : undefined));
    assert.match(app.output(), /the primary is gone/);
  });
});

describe("a worker killed while the primary hands it connections", () => {
  test("the connections it never took are served by another worker, none is left hanging", {
    timeout: TEST_MS,
  }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"]);
    await app.waitFor(/with 2 workers/);
    // A worker whose event loop is blocked reads no hand-off: the round-robin gives it one
    // connection (then waits for its answer), the others go to the other worker.
    const blocked = get(`${base}/block/8000`);
    const pid = Number(/blocking in (\d+)/.exec(await app.waitFor(/blocking in \d+/))![1]);
    const requests = [1, 2, 3, 4].map(() => get(`${base}/pid`));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    process.kill(pid, "SIGKILL");
    const answers = await Promise.all(requests);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200, 200],
      answers.map((answer) => answer.error ?? answer.text).join("; ") + app.recent(),
    );
    assert.ok(answers.every((answer) => answer.text !== String(pid)));
    assert.equal((await blocked).status, 0, "the request the killed worker held is lost");
    await app.waitFor(/never took/);
  });
});

describe("a rolling restart whose new worker is not ready", () => {
  test("stops there: the new worker goes, the old workers keep serving, the log says why", {
    timeout: TEST_MS,
  }, async () => {
    const down = join(tmpdir(), `fw-roll-down-${process.pid}`);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    try {
      const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"], {
        FIXTURE_DOWN_FILE: down,
      });
      await app.waitFor(/with 2 workers/);
      const before = new Set<string>();
      for (let i = 0; i < 8; i++) before.add((await get(`${base}/pid`)).text);
      // The new code would answer 503 on /readyz (a store down, pending migrations).
      writeFileSync(down, "");
      app.child.kill("SIGHUP");
      await app.waitFor(/rolling restart stopped, the old workers keep serving: new worker \d+ is not ready \(store: /);
      assert.doesNotMatch(app.output(), /rolling restart done/);
      const after = new Set<string>();
      for (let i = 0; i < 8; i++) after.add((await get(`${base}/pid`)).text);
      assert.deepEqual([...after].sort(), [...before].sort(), "the same two workers serve");
      rmSync(down);
      app.child.kill("SIGHUP");
      await app.waitFor(/rolling restart done/);
    } finally {
      rmSync(down, { force: true });
    }
  });
});

describe("SIGHUP during a rolling restart", () => {
  test("is not lost: one more rolling restart follows once the running one ends, and further signals join it", {
    timeout: TEST_MS,
  }, async () => {
    const port = await freePort();
    const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"]);
    await app.waitFor(/with 2 workers/);
    app.child.kill("SIGHUP");
    // A worker boots through tsx in seconds: these two come while the first restart runs.
    await app.waitFor(/rolling restart of 2 worker\(s\)/);
    app.child.kill("SIGHUP");
    await app.waitFor(/SIGHUP during a rolling restart/);
    app.child.kill("SIGHUP");
    const count = (pattern: RegExp) => (app.output().match(pattern) ?? []).length;
    await eventually("two rolling restarts done", async () => (count(/rolling restart done/g) >= 2 ? true : undefined));
    const output = app.output();
    assert.equal(count(/rolling restart of 2 worker\(s\)/g), 2, output);
    assert.equal(count(/SIGHUP during a rolling restart/g), 1, output);
    assert.ok(output.indexOf("rolling restart done") < output.lastIndexOf("rolling restart of"), output);
    assert.equal((await get(`http://127.0.0.1:${port}/pid`)).status, 200);
  });
});

/**
 * `start --workers 2` whose two workers are both held in their boot until `release()`; resolves once
 * both say so, with their pids.
 */
async function bootingWorkers(name: string) {
  const slow = join(tmpdir(), `fw-slow-boot-${name}-${process.pid}`);
  writeFileSync(slow, "");
  const port = await freePort();
  const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"], {
    FIXTURE_SLOW_BOOT_FILE: slow,
  });
  await eventually("both workers booting", async () =>
    (app.output().match(/slow boot in \d+/g) ?? []).length >= 2 ? true : undefined,
  );
  const workers = [...app.output().matchAll(/slow boot in (\d+)/g)].map((match) => Number(match[1]));
  return { app, workers, release: () => rmSync(slow, { force: true }) };
}

describe("SIGTERM while the workers boot", () => {
  test("the primary stops them as at any other time: each finishes its boot, drains and exits, then the primary exits 0", {
    timeout: TEST_MS,
  }, async () => {
    const { app, workers, release } = await bootingWorkers("term");
    try {
      app.child.kill("SIGTERM");
      await app.waitFor(/SIGTERM while the workers start/);
      release();
      const status = await app.exit("the primary's exit after SIGTERM");
      const output = app.output();
      assert.deepEqual(status, { code: 0, signal: null }, output);
      assert.match(output, /every worker stopped; exiting with code 0/);
      assert.doesNotMatch(output, /Unhandled 'error' event|EPIPE|the primary is gone/, output);
      assert.ok(
        workers.every((pid) => !alive(pid)),
        `workers ${workers.join(", ")} exited with the primary`,
      );
      assert.doesNotMatch(output, /with 2 workers/, "it never said it serves");
    } finally {
      release();
    }
  });
});

describe("the primary killed while the workers boot", () => {
  test("each worker finishes its boot, notices, and exits 0 without an unhandled error", {
    timeout: TEST_MS,
  }, async () => {
    const { app, workers, release } = await bootingWorkers("kill");
    try {
      process.kill(app.child.pid!, "SIGKILL");
      release();
      await eventually("the workers to exit", async () => (workers.every((pid) => !alive(pid)) ? true : undefined));
      // Their last lines reach the test through the pipe the primary shared with them.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.doesNotMatch(app.output(), /Unhandled 'error' event|EPIPE|ERR_IPC_CHANNEL_CLOSED/, app.output());
    } finally {
      release();
    }
  });
});

describe("a refused start exits non-zero in every worker mode", () => {
  for (const workers of ["1", "2"]) {
    test(`a plugin refusing to start (--workers ${workers}) prints its error and exits 1`, {
      timeout: TEST_MS,
    }, async () => {
      const app = runFixture(
        ["start", "--workers", workers, "--port", String(await freePort()), "--host", "127.0.0.1"],
        { FIXTURE_REFUSE_START: "1" },
      );
      const { code } = await app.exit("the refused start to exit");
      assert.equal(code, 1, app.output());
      assert.match(app.output(), /E_FIXTURE_REFUSED/);
    });
  }
});

/** The JSON lines of a process's output (other lines, such as the fixture's console.log, skipped). */
const jsonLines = (output: string): Array<Record<string, unknown>> =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the lines start writes in production", () => {
  test("the primary's lines are JSON with ISO times and levels, like the workers'; a request cut at shutdown gets a line", {
    timeout: TEST_MS,
  }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"], {
      FIXTURE_GRACE: "1",
    });
    await app.waitFor(/with 2 workers/);
    await get(`${base}/crash`);
    await app.waitFor(/replaced the one that died/);
    app.child.kill("SIGHUP");
    await app.waitFor(/rolling restart done/);
    const cut = get(`${base}/slow/15000`);
    await app.waitFor(/slow request started/);
    app.child.kill("SIGTERM");
    assert.equal((await cut).status, 0, "the grace period cut the request");
    assert.equal((await app.exit("the primary to exit after SIGTERM")).code, 0, app.output());

    const lines = jsonLines(app.output());
    const line = (pattern: RegExp) => lines.find((entry) => pattern.test(String(entry["msg"])));
    for (const pattern of [
      /no build found/,
      /Serving on .* with 2 workers/,
      /worker \d+ died \(exit 3\)/,
      /replaced the one that died/,
      /rolling restart done/,
    ]) {
      const entry = line(pattern);
      assert.ok(entry, `a JSON line for ${pattern}:\n${app.output()}`);
      assert.match(String(entry["time"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(typeof entry["level"], "number");
      assert.equal(entry["name"], "start");
    }
    assert.equal(line(/died/)!["level"], 40, "a worker dying is a warning");
    // SIGTERM: a line when the drain starts and one when the primary exits.
    const draining = line(/^SIGTERM: draining 2 worker\(s\)/);
    assert.ok(draining, app.output());
    assert.equal(draining["name"], "start");
    assert.ok(line(/^every worker stopped; exiting with code 0$/), app.output());
    const cutLine = line(/request cut at shutdown: GET \/slow\/15000/);
    assert.ok(cutLine, app.output());
    assert.equal(typeof cutLine["reqId"], "string");
    assert.match(String(cutLine["time"]), /^\d{4}-\d\d-\d\dT/);
    // Every line but the fixture's own console.log is JSON.
    const other = app
      .output()
      .split("\n")
      .filter((text) => text !== "" && !text.startsWith("{") && !/^slow request started/.test(text));
    assert.deepEqual(other, []);
  });

  test("a refused start's error is a JSON line with its code", { timeout: TEST_MS }, async () => {
    const app = runFixture(["start", "--workers", "1", "--port", String(await freePort()), "--host", "127.0.0.1"], {
      FIXTURE_REFUSE_START: "1",
    });
    assert.equal((await app.exit("the refused start to exit")).code, 1);
    const error = jsonLines(app.output()).find((entry) => entry["code"] === "E_FIXTURE_REFUSED");
    assert.equal(error?.["level"], 50, app.output());
  });
});
