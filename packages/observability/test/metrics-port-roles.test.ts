// The metrics port belongs to the web server: with metrics on and the port taken (start runs on
// this machine with the same environment), a job worker serves its metrics on a port of its own
// (METRICS_WORKER_PORT) and a one-off command (a listing, the console, a script) opens none.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { after, before, describe, test } from "node:test";
import { setProcessRole } from "@fwkit/battery-kit/host";
import type { ProcessRole } from "@fwkit/battery-kit";
import { startApp, TestView } from "./fixtures.js";

class Home extends TestView {
  index() {
    return { ok: true };
  }
}

let taken: Server;
let port = 0;
before(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
});
after(() => new Promise<void>((resolve) => taken.close(() => resolve())));

async function asRole<T>(role: ProcessRole, run: () => Promise<T>): Promise<T> {
  const before = setProcessRole(role);
  try {
    return await run();
  } finally {
    setProcessRole(before);
  }
}

const metrics = () => ({ metrics: { enabled: true, host: "127.0.0.1", port, workerPort: 0 } });

describe("the metrics port by process role", () => {
  test("a web server finds the port taken: E_METRICS_PORT_IN_USE", async () => {
    await assert.rejects(
      asRole("serve", () => startApp({ Home }, metrics())),
      (error: Error & { code?: string }) => error.code === "E_METRICS_PORT_IN_USE",
    );
  });

  test("a one-off command opens no metrics port, and its app works", async () => {
    const app = await asRole("command", () => startApp({ Home }, metrics()));
    try {
      assert.equal(app.plugin.metricsAddress(), undefined);
      assert.equal((await fetch(`${app.url}/healthz`)).status, 200);
    } finally {
      await app.host.close();
    }
  });

  test("a job worker serves its metrics on its own port beside the taken one", async () => {
    const app = await asRole("worker", () => startApp({ Home }, metrics()));
    try {
      const address = app.plugin.metricsAddress();
      assert.ok(address, "the worker's metrics port is open");
      assert.notEqual(address, `127.0.0.1:${port}`);
      const scrape = await fetch(`http://${address}/metrics`);
      assert.equal(scrape.status, 200);
      assert.match(await scrape.text(), /^# HELP /m);
    } finally {
      await app.host.close();
    }
  });
});
