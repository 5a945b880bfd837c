// `start` end to end on a fixture app: cluster workers, a worker crash replaced, SIGHUP rolling
// restart with no failed request, SIGTERM letting an in-flight request finish with exit 0, the
// single-process mode, and every bad start input (flags, port in use, build, boot failures).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { eventually, freePort, get, killAll, runFixture, within } from "./production-support.js";

// Each test fails on its own, naming its step, well before the runner's per-file timeout.
const TEST_MS = 150_000;
after(killAll);

/** The pids that answer `/pid` over `count` new connections. */
async function answeringPids(base: string, count: number): Promise<Set<string>> {
  const pids = new Set<string>();
  for (let i = 0; i < count; i++) {
    const res = await get(`${base}/pid`);
    if (res.status === 200) pids.add(res.text);
  }
  return pids;
}

describe("start with 2 workers", () => {
  test("serves from two worker processes, replaces a crashed one, rolls on SIGHUP without a failed request, drains on SIGTERM and exits 0", {
    timeout: TEST_MS,
  }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"]);
    await app.waitFor(/Serving on http:\/\/127\.0\.0\.1:\d+ with 2 workers/);
    await app.waitFor(/warning: no build found/);
    assert.deepEqual(await get(`${base}/healthz`).then((r) => [r.status, r.text]), [200, '{"status":"ok"}']);
    assert.equal((await get(`${base}/readyz`)).status, 200);

    const first = await eventually("both workers answering", async () => {
      const pids = await answeringPids(base, 8);
      return pids.size === 2 ? pids : undefined;
    });
    assert.ok(!first.has(String(app.child.pid)), "the primary does not serve requests itself");

    // A worker that dies is replaced; the primary keeps running.
    const crash = await get(`${base}/crash`);
    assert.equal(crash.status, 200, crash.error);
    const crashed = crash.text.replace("crashing ", "");
    await app.waitFor(/replaced the one that died/);
    const afterCrash = await eventually("two workers again", async () => {
      const pids = await answeringPids(base, 8);
      return pids.size === 2 && !pids.has(crashed) ? pids : undefined;
    });
    assert.equal(afterCrash.size, 2);

    // SIGHUP: every worker replaced, requests keep succeeding all along (a request that hangs,
    // left open by a worker exiting under it, counts as failed after REQUEST_MS).
    const failures: string[] = [];
    let requests = 0;
    let rolling = true;
    const traffic = (async () => {
      while (rolling) {
        const res = await get(`${base}/pid`);
        requests++;
        if (res.status !== 200) failures.push(res.error ?? `status ${res.status}`);
      }
    })();
    try {
      app.child.kill("SIGHUP");
      await app.waitFor(/rolling restart done/);
    } finally {
      rolling = false;
      await within("the traffic of the rolling restart to end", traffic);
    }
    assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed during the rolling restart`);
    assert.ok(requests > 0);
    const rolled = await answeringPids(base, 8);
    for (const pid of afterCrash) assert.ok(!rolled.has(pid), `worker ${pid} was replaced by the rolling restart`);

    // SIGTERM: a request in flight completes, then the primary exits 0.
    const inFlight = get(`${base}/slow/1500`);
    await app.waitFor(/slow request started/);
    app.child.kill("SIGTERM");
    const slow = await inFlight;
    assert.equal(slow.status, 200, slow.error);
    assert.match(slow.text, /^slow \d+$/);
    const { code } = await app.exit("the primary to exit after SIGTERM");
    assert.equal(code, 0, app.output());
  });
});

describe("start --workers 1 (no cluster)", () => {
  test("serves in the process itself and drains on SIGTERM with exit 0, logging the drain and the exit", {
    timeout: TEST_MS,
  }, async () => {
    const port = await freePort();
    const app = runFixture(["start", "--workers", "1", "--port", String(port), "--host", "127.0.0.1"]);
    await app.waitFor(/in this process/);
    const pid = (await get(`http://127.0.0.1:${port}/pid`)).text;
    assert.equal(pid, String(app.child.pid));
    const inFlight = get(`http://127.0.0.1:${port}/slow/1000`);
    await app.waitFor(/slow request started/);
    app.child.kill("SIGTERM");
    const slow = await inFlight;
    assert.equal(slow.status, 200, slow.error);
    assert.equal((await app.exit("the process to exit after SIGTERM")).code, 0, app.output());
    // The start of the drain and the exit are logged.
    assert.match(app.output(), /"msg":"SIGTERM: draining: no new connections, requests in flight get up to \d+ s"/);
    assert.match(app.output(), /"msg":"drained; exiting with code 0"/);
  });
});

describe("bad start input", () => {
  for (const workers of ["0", "-2", "1.5", "many"]) {
    test(`--workers ${workers} is refused with E_START_OPTION and a non-zero exit`, { timeout: TEST_MS }, async () => {
      const app = runFixture(["start", "--workers", workers, "--port", "0"]);
      const { code } = await app.exit("the process to exit with its error");
      assert.equal(code, 1);
      assert.match(app.output(), /E_START_OPTION: --workers must be a whole number of 1 or more/);
    });
  }

  test("start defaults APP_ENV to production, where no SECRET_KEY means no start", { timeout: TEST_MS }, async () => {
    const app = runFixture(["start", "--workers", "2", "--port", String(await freePort()), "--host", "127.0.0.1"], {
      SECRET_KEY: "",
    });
    assert.equal((await app.exit("the process to exit with its error")).code, 1);
    assert.match(app.output(), /E_MISSING_SECRET_KEY: APP_ENV is production but no secret key is set/);
  });

  test("an unknown flag is refused naming it", { timeout: TEST_MS }, async () => {
    const app = runFixture(["start", "--wrokers", "2"]);
    assert.equal((await app.exit("the process to exit with its error")).code, 1);
    assert.match(app.output(), /Unknown (argument|option):? -*wrokers/);
  });

  for (const workers of ["1", "2"]) {
    test(`a port in use is E_PORT_IN_USE naming the address (--workers ${workers})`, { timeout: TEST_MS }, async () => {
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
      const { port } = blocker.address() as { port: number };
      try {
        const app = runFixture(["start", "--workers", workers, "--port", String(port), "--host", "127.0.0.1"]);
        assert.equal((await app.exit("the process to exit with its error")).code, 1);
        assert.match(app.output(), new RegExp(`E_PORT_IN_USE: 127\\.0\\.0\\.1:${port} is already in use`));
      } finally {
        blocker.close();
      }
    });
  }

  test("a worker failing at start (unreachable database) stops start with its message, password masked, exit 1", {
    timeout: TEST_MS,
  }, async () => {
    const flag = join(tmpdir(), `fw-boot-fail-${process.pid}`);
    writeFileSync(flag, "");
    try {
      const app = runFixture(["start", "--workers", "2", "--port", String(await freePort()), "--host", "127.0.0.1"], {
        FIXTURE_FAIL_BOOT: flag,
      });
      assert.equal((await app.exit("the process to exit with its error")).code, 1);
      assert.match(app.output(), /E_WORKERS_FAILED: .*postgres:\/\/app:\*\*\*\*@127\.0\.0\.1:1\/app cannot be reached/);
    } finally {
      rmSync(flag, { force: true });
    }
  });

  test("replacement workers that crash at boot over and over stop the primary with a non-zero exit", {
    timeout: TEST_MS,
  }, async () => {
    const flag = join(tmpdir(), `fw-boot-loop-${process.pid}`);
    rmSync(flag, { force: true });
    const port = await freePort();
    const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"], {
      FIXTURE_FAIL_BOOT: flag,
    });
    await app.waitFor(/with 2 workers/);
    writeFileSync(flag, "");
    try {
      await get(`http://127.0.0.1:${port}/crash`);
      const { code } = await app.exit("the primary to give up");
      assert.equal(code, 1);
      assert.match(app.output(), /a replacement worker failed at boot \(5\/5\)/);
      assert.match(app.output(), /E_WORKERS_FAILED: workers crash at boot over and over/);
    } finally {
      rmSync(flag, { force: true });
    }
  });

  test("a build/ folder without app.js is E_BUILD_FAILED, not a silent fallback to the sources", {
    timeout: TEST_MS,
  }, async () => {
    // An app folder of its own (sources plus a half-written build), not the shared fixture's.
    const root = mkdtempSync(join(tmpdir(), "fw-half-build-"));
    writeFileSync(join(root, "app.ts"), "export const app = {};\n");
    mkdirSync(join(root, "build"));
    try {
      const app = runFixture(["start", "--workers", "1", "--port", "0", "--root", root]);
      assert.equal((await app.exit("the process to exit with its error")).code, 1);
      assert.match(app.output(), /E_BUILD_FAILED: .*holds no app\.js; run the build command again/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("readiness of a started process follows its plugins: 503 naming the store while it is down", {
    timeout: TEST_MS,
  }, async () => {
    const down = join(tmpdir(), `fw-store-down-${process.pid}`);
    writeFileSync(down, "");
    const port = await freePort();
    try {
      const app = runFixture(["start", "--workers", "1", "--port", String(port), "--host", "127.0.0.1"], {
        FIXTURE_DOWN_FILE: down,
      });
      await app.waitFor(/in this process/);
      // The app's logger writes asynchronously: its line may follow the "Serving on" one.
      await app.waitFor(/started unready/);
      const unready = await get(`http://127.0.0.1:${port}/readyz`);
      assert.equal(unready.status, 503);
      assert.match(unready.text, /"store":"down"/);
      assert.doesNotMatch(unready.text, /127\.0\.0\.1/, "the part is named, never its address");
      assert.match(app.output(), /the store at 127\.0\.0\.1:1 does not answer/, "the reason is in the log");
      rmSync(down);
      // Each check's answer is kept for readyCache (1 s by default).
      let status = 0;
      // Waits for the check to pass again; the deadline only ends a hang.
      const deadline = Date.now() + 60_000;
      while (status !== 200 && Date.now() < deadline) {
        status = (await get(`http://127.0.0.1:${port}/readyz`)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(status, 200);
      app.child.kill("SIGTERM");
      assert.equal((await app.exit("the process to exit after SIGTERM")).code, 0, app.output());
    } finally {
      rmSync(down, { force: true });
    }
  });
});
