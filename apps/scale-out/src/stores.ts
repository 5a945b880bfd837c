// The stores the nodes share: a Redis of the test's own (persistent, so it can be stopped and
// started again with its data) and a PostgreSQL database unique to the run.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { eventually, freePort, launch, type Proc } from "./processes.js";

/** A redis-server on its own port with an append-only file, so an outage keeps the sessions. */
export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Starts redis-server (fails naming it when it is not installed). */
export async function startPrivateRedis(dir: string): Promise<PrivateRedis> {
  const port = await freePort();
  const data = join(dir, "redis");
  mkdirSync(data, { recursive: true });
  let proc: Proc | undefined;
  const start = async () => {
    proc = launch("redis-server", [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      data,
      "--appendonly",
      "yes",
      "--appendfsync",
      "always",
      "--save",
      "",
    ]);
    await proc.waitFor(
      /Ready to accept connections/,
      "redis-server ready (apt-get install -y redis-server if it is missing)",
    );
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      await proc?.stop("SIGTERM");
    },
  };
}

/** A database of its own on the machine's PostgreSQL; `drop()` removes it. */
export interface Database {
  readonly url: string;
  readonly name: string;
  drop(): void;
}

function psql(base: URL, sql: string): void {
  const result = spawnSync(
    "psql",
    [
      "-h",
      base.hostname,
      "-p",
      base.port || "5432",
      "-U",
      base.username || "postgres",
      "-d",
      "postgres",
      "-v",
      "ON_ERROR_STOP=1",
      "-c",
      sql,
    ],
    { encoding: "utf8" },
  );
  if (result.status !== 0) assert.fail(`psql failed (${sql}): ${result.stderr}${result.error?.message ?? ""}`);
}

/** Creates `name` on the PostgreSQL at 127.0.0.1:5432 (requireServer names it when it is down). */
export async function createDatabase(name: string): Promise<Database> {
  await requireServer("postgres");
  const base = new URL(serverUrls.postgres);
  psql(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  psql(base, `CREATE DATABASE ${name}`);
  const url = new URL(base.href);
  url.pathname = `/${name}`;
  return { url: url.href, name, drop: () => psql(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * A PostgreSQL cluster of the run's own on a free port (initdb as the postgres user), so the load
 * run can restart it without touching the machine's shared server.
 */
export interface PrivatePostgres {
  readonly url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function pgBin(name: string): string {
  const found = spawnSync("sh", ["-c", `ls -d /usr/lib/postgresql/*/bin/${name} 2>/dev/null | sort -V | tail -1`], {
    encoding: "utf8",
  }).stdout.trim();
  if (!found) assert.fail(`${name} is not installed (apt-get install -y postgresql)`);
  return found;
}

/** Starts a private PostgreSQL (as the `postgres` user, since initdb refuses root). */
export async function startPrivatePostgres(dir: string): Promise<PrivatePostgres> {
  const port = await freePort();
  const data = join(dir, "pgdata");
  const asPostgres = (args: string[]) => {
    const result = spawnSync("runuser", ["-u", "postgres", "--", ...args], { encoding: "utf8" });
    if (result.status !== 0) assert.fail(`${args.join(" ")} failed: ${result.stderr}${result.stdout}`);
  };
  mkdirSync(data, { recursive: true });
  spawnSync("chown", ["-R", "postgres:postgres", dir]);
  spawnSync("chmod", ["755", dir]);
  asPostgres([pgBin("initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  const ctl = (action: string) =>
    asPostgres([
      pgBin("pg_ctl"),
      "-D",
      data,
      "-w",
      "-t",
      "60",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
      "-l",
      join(dir, "pg.log"),
      action,
    ]);
  ctl("start");
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await eventually("private PostgreSQL", async () =>
    spawnSync("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-c", "select 1"]).status === 0
      ? true
      : undefined,
  );
  // The restart runs as a child the event loop does not wait on: load sent from this process
  // keeps flowing while the server goes down and comes back (a blocking call would pause it, and
  // the requests that would have failed would never be sent).
  const restartInBackground = () =>
    new Promise<void>((resolve, reject) => {
      const args = [
        pgBin("pg_ctl"),
        "-D",
        data,
        "-w",
        "-t",
        "60",
        "-m",
        "fast",
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
        "-l",
        join(dir, "pg.log"),
        "restart",
      ];
      const child = spawn("runuser", ["-u", "postgres", "--", ...args], { stdio: "ignore" });
      child.once("error", reject);
      child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl restart exited ${code}`))));
    });
  return {
    url,
    restart: restartInBackground,
    stop: async () => ctl("stop"),
    start: async () => ctl("start"),
    close: async () => {
      try {
        ctl("stop");
      } catch {
        // already stopped
      }
    },
  };
}
