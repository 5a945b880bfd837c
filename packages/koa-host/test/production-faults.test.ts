// `start` when a process dies under it: the primary killed with requests in flight (its workers
// finish them, then exit), a worker killed while connections are handed to it (none is left
// hanging), and a refused start exiting in every worker mode.
import assert from "node:assert/strict";
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
  test("its workers stop accepting, finish every request in flight with 200, log why, then exit", { timeout: TEST_MS }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"]);
    await app.waitFor(/with 2 workers/);
    const inFlight = [1, 2, 3, 4].map(() => get(`${base}/slow/3000`));
    await eventually("four slow requests in flight", async () => ((app.output().match(/slow request started/g) ?? []).length >= 4 ? true : undefined));
    const workers = [...new Set([...app.output().matchAll(/slow request started in (\d+)/g)].map((match) => Number(match[1])))];
    process.kill(app.child.pid!, "SIGKILL");
    const answers = await Promise.all(inFlight);
    assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 200, 200], answers.map((answer) => answer.error ?? "").join("; ") + app.recent());
    // Nothing takes new requests on the port once the primary is gone.
    assert.equal((await get(`${base}/pid`)).status, 0);
    await eventually("the workers to exit", async () => (workers.every((pid) => !alive(pid)) ? true : undefined));
    assert.match(app.output(), /the primary is gone/);
  });
});

describe("a refused start exits non-zero in every worker mode", () => {
  for (const workers of ["1", "2"]) {
    test(`a plugin refusing to start (--workers ${workers}) prints its error and exits 1`, { timeout: TEST_MS }, async () => {
      const app = runFixture(["start", "--workers", workers, "--port", String(await freePort()), "--host", "127.0.0.1"], { FIXTURE_REFUSE_START: "1" });
      const { code } = await app.exit("the refused start to exit");
      assert.equal(code, 1, app.output());
      assert.match(app.output(), /E_FIXTURE_REFUSED/);
    });
  }
});
