// Readiness by part: each check by name and state, required parts (database, migrations) take the
// node out, optional ones (a shared session store or cache) only degrade it, answers are kept for
// `readyCache` ms, and the reasons go to the log at warn level, never to the client; a node whose
// app folder was deleted under it is unready.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, describe, test } from "node:test";
import { pino } from "pino";
import type { HostPlugin, ReadinessState } from "../../src/plugin.js";
import { startHost, TestView } from "../fixtures.js";

class Index extends TestView {
  index() {
    return "home";
  }
}

/** A plugin with three parts whose answers the test sets, counting how often each is asked. */
function parts() {
  const state = {
    database: "ok" as ReadinessState | "throw",
    migrations: "ok" as ReadinessState,
    sessions: "ok" as ReadinessState | "throw",
  };
  const asked = { database: 0, migrations: 0, sessions: 0 };
  const plugin: HostPlugin = {
    name: "stores",
    readiness: () => [
      {
        name: "database",
        async check() {
          asked.database++;
          if (state.database === "throw") throw new Error("postgres://app:secret@10.0.0.5:5432/shop does not answer");
        },
      },
      {
        name: "migrations",
        async check() {
          asked.migrations++;
          return state.migrations;
        },
      },
      {
        name: "sessions",
        required: false,
        async check() {
          asked.sessions++;
          if (state.sessions === "throw") throw new Error("redis://:secret@10.0.0.6:6379 ECONNREFUSED");
        },
      },
    ],
  };
  return { plugin, state, asked };
}

function logLines(): { lines: Array<Record<string, unknown>>; stream: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n"))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe("readiness by part", async () => {
  const { plugin, state } = parts();
  const { host, url } = await startHost({ Index }, { plugins: [plugin], config: { env: "test", readyCache: 0 } });
  after(() => host.close());
  const probe = async () => {
    const res = await fetch(`${url}/readyz`);
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as { status: string; checks: Record<string, string> } };
  };

  test("every check is listed with its state", async () => {
    assert.deepEqual((await probe()).body, {
      status: "ok",
      checks: { database: "ok", migrations: "ok", sessions: "ok" },
    });
  });

  test("pending migrations make the node unready (503)", async () => {
    state.migrations = "pending";
    try {
      const { status, body } = await probe();
      assert.equal(status, 503);
      assert.deepEqual(body, {
        status: "unavailable",
        checks: { database: "ok", migrations: "pending", sessions: "ok" },
      });
    } finally {
      state.migrations = "ok";
    }
  });

  test("a database that does not answer is 503 naming the part, never its address or user", async () => {
    state.database = "throw";
    try {
      const { status, body, text } = await probe();
      assert.equal(status, 503);
      assert.equal(body.checks["database"], "down");
      assert.doesNotMatch(text, /postgres|secret|10\.0\.0\.5|5432|app:/);
    } finally {
      state.database = "ok";
    }
  });

  test("an optional store that is down leaves the node in the balancer: 200, degraded", async () => {
    state.sessions = "throw";
    try {
      const { status, body, text } = await probe();
      assert.equal(status, 200);
      assert.deepEqual(body, { status: "degraded", checks: { database: "ok", migrations: "ok", sessions: "down" } });
      assert.doesNotMatch(text, /redis|secret|10\.0\.0\.6/);
    } finally {
      state.sessions = "ok";
    }
  });
});

describe("readiness is cheap and logs changes once", async () => {
  const { plugin, asked } = parts();
  const { host, url } = await startHost({ Index }, { plugins: [plugin], config: { env: "test", readyCache: 60_000 } });
  after(() => host.close());

  test("probes within readyCache reuse each check's answer (probes arriving together share one)", async () => {
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${url}/readyz`).then((res) => res.text())));
    for (let i = 0; i < 10; i++) assert.equal((await fetch(`${url}/readyz`)).status, 200);
    assert.deepEqual(asked, { database: 1, migrations: 1, sessions: 1 });
  });

  test("a part going down is logged once at warn with its reason", async () => {
    const fresh = parts();
    const log = logLines();
    const second = await startHost(
      { Index },
      { plugins: [fresh.plugin], logger: pino({ level: "info" }, log.stream), config: { env: "test", readyCache: 0 } },
    );
    try {
      fresh.state.database = "throw";
      for (let i = 0; i < 3; i++) assert.equal((await fetch(`${second.url}/readyz`)).status, 503);
      fresh.state.database = "ok";
      assert.equal((await fetch(`${second.url}/readyz`)).status, 200);
      const about = log.lines.filter((line) => line["check"] === "database");
      assert.equal(about.length, 2, JSON.stringify(about));
      assert.equal(about[0]!["level"], 40);
      assert.match(String(about[0]!["msg"]), /readiness: database is down: .*does not answer/);
      assert.equal(about[1]!["level"], 30);
    } finally {
      await second.host.close();
    }
  });
});

describe("readiness when the app's folder is gone", () => {
  test("503 naming files as down once the folder the app was loaded from is deleted, logged once at error", async () => {
    const root = mkdtempSync(join(tmpdir(), "fw-ready-files-"));
    const log = logLines();
    const { host, url } = await startHost(
      { Index },
      { root, logger: pino({ level: "info" }, log.stream), config: { env: "test", readyCache: 0 } },
    );
    try {
      assert.equal((await fetch(`${url}/readyz`)).status, 200);
      rmSync(root, { recursive: true, force: true });
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${url}/readyz`);
        assert.equal(res.status, 503);
        assert.deepEqual(await res.json(), { status: "unavailable", checks: { files: "down" } });
      }
      assert.equal((await fetch(`${url}/healthz`)).status, 200, "the process itself still answers");
      const lines = log.lines.filter((line) => line["check"] === "files");
      assert.equal(lines.length, 1, JSON.stringify(log.lines));
      assert.equal(lines[0]!["level"], 50);
    } finally {
      await host.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
