import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { generatedRoutes } from "../src/generate.js";
import { parseWrk } from "../src/load.js";
import { configurations, parseOptions, plannedLoadSeconds, roundOrder } from "../src/plan.js";
import { markdownTables, median, summarise } from "../src/report.js";
import type { RawResults, RunRecord } from "../src/runner.js";
import { lastRoutePath, lastRouteWorkload } from "../src/workloads.js";

describe("options", () => {
  test("quick runs are one short round without the 1,000-route size; full runs five rounds", () => {
    const quick = parseOptions(["--quick"], true);
    assert.equal(quick.rounds, 1);
    assert.deepEqual(quick.routeSizes, [10, 10_000]);
    assert.equal(quick.loader, "wrk");
    assert.equal(quick.writeDoc, false);
    const full = parseOptions([], false);
    assert.equal(full.rounds, 4);
    assert.equal(full.warmupEach, true);
    assert.deepEqual(full.startupSizes, [10, 1000, 10_000]);
    assert.deepEqual(quick.startupSizes, [10_000]);
    assert.equal(quick.startupFromLoad, true);
    assert.equal(full.startupFromLoad, false);
    assert.equal(full.loader, "autocannon");
    assert.equal(full.writeDoc, true);
    assert.equal(parseOptions(["--only=fw-a"], false).writeDoc, false, "a filtered run leaves the doc alone");
    assert.equal(parseOptions(["--only=fw-a"], false).filtered, true, "and writes results/partial.json");
    assert.ok(full.scenarios.includes("workers"), "a full run includes start --workers 1 / 2");
  });

  test("bad options are refused with a message naming them", () => {
    assert.throws(() => parseOptions(["--rounds=0"], true), /--rounds needs a positive number/);
    assert.throws(() => parseOptions(["--only=express"], true), /unknown server "express"/);
    assert.throws(() => parseOptions(["--fast"], true), /Unknown option --fast/);
    assert.throws(() => parseOptions(["quick"], true), /Unknown argument "quick"/);
    assert.throws(() => parseOptions(["--loader=wrk"], false), /wrk is not on PATH/);
    assert.throws(() => parseOptions(["--scenarios=basic,workerz"], false), /unknown scenario "workerz"/);
  });

  test("the production and db scenarios start their servers anew every round, except when profiling or quick", () => {
    assert.deepEqual(parseOptions([], false).freshScenarios, ["production", "db"]);
    assert.deepEqual(parseOptions(["--fresh=none"], false).freshScenarios, []);
    assert.deepEqual(parseOptions(["--fresh=basic"], false).freshScenarios, ["basic"]);
    assert.deepEqual(parseOptions(["--profile"], false).freshScenarios, [], "a profile covers one process");
    assert.deepEqual(parseOptions(["--quick"], false).freshScenarios, []);
    assert.throws(() => parseOptions(["--fresh=prod"], false), /--fresh: "prod" is not a scenario/);
    assert.throws(
      () => parseOptions(["--fresh=workers"], false),
      /--fresh: "workers" is not a scenario whose servers can be started anew; use basic, security, production, observability, db, routes, or none/,
    );
    // Each fresh round warms its new processes up again: the plan counts those seconds.
    const once = plannedLoadSeconds(parseOptions(["--fresh=none", "--scenarios=production"], false));
    const fresh = plannedLoadSeconds(parseOptions(["--scenarios=production"], false));
    const slots = configurations(parseOptions(["--scenarios=production"], false)).length;
    assert.equal(fresh - once, slots * 3 * 2, "three more warm-ups of 2 s per server over four rounds");
    const routeSlots = configurations(parseOptions(["--scenarios=routes"], false)).length;
    assert.equal(
      plannedLoadSeconds(parseOptions(["--fresh=routes", "--scenarios=routes"], false)) -
        plannedLoadSeconds(parseOptions(["--fresh=none", "--scenarios=routes"], false)),
      routeSlots * 3 * 2,
      "the route-count runs (routes-10, routes-1000, ...) count as the routes scenario",
    );
  });

  test("the plan gives each server only the workloads it serves", () => {
    const plan = configurations(parseOptions([], false));
    const nest = plan.filter((c) => c.server === "nest");
    assert.deepEqual(
      nest.map((c) => c.scenario),
      ["basic"],
    );
    assert.deepEqual(
      plan.filter((c) => c.scenario === "routes-10000").map((c) => c.server),
      ["koa-router", "fw-a", "fw-b"],
    );
    assert.deepEqual(
      plan.find((c) => c.server === "fw-a" && c.scenario === "basic")!.workloads.map((w) => w.name),
      ["text", "params", "json", "page-njk"],
    );
  });

  test("a full run's load fits the 15-minute budget with room for start-ups", () => {
    const seconds = plannedLoadSeconds(parseOptions([], false));
    assert.ok(seconds > 0 && seconds <= 11 * 60, `a full run plans ${seconds} s of load`);
    assert.ok(plannedLoadSeconds(parseOptions(["--quick"], false)) < 120);
  });

  test("rounds rotate the order so no configuration is always first", () => {
    const items = ["a", "b", "c", "d", "e", "f"];
    const firsts = [0, 1, 2].map((round) => roundOrder(items, round, 3)[0]);
    assert.deepEqual(firsts, ["a", "c", "e"]);
    for (const round of [0, 1, 2]) assert.deepEqual([...roundOrder(items, round, 3)].sort(), items);
  });
});

describe("generated routes", () => {
  test("N routes in classes of ten; the last path is the last registered", () => {
    for (const n of [10, 1000, 10_000, 25]) {
      const routes = generatedRoutes(n);
      assert.equal(routes.length, n);
      assert.equal(routes.at(-1)!.path, lastRoutePath(n));
      assert.equal(new Set(routes.map((r) => r.path)).size, n);
      assert.ok(lastRouteWorkload(n).check(routes.at(-1)!.text));
    }
  });
});

describe("wrk output", () => {
  const sample = `Running 2s test @ http://127.0.0.1:1234/text
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.52ms  310.00us   9.40ms   90.00%
  Latency Distribution
     50%    1.40ms
     75%    1.60ms
     90%    1.90ms
     99%  850.00us
  60123 requests in 2.00s, 9.00MB read
  Non-2xx or 3xx responses: 3
Requests/sec:  30061.50
Transfer/sec:      4.50MB`;

  test("requests/s, p99 in ms (any unit), mean latency, request count and bad answers are read", () => {
    const result = parseWrk(sample);
    assert.equal(result.rps, 30061.5);
    assert.equal(result.p99, 0.85);
    assert.equal(result.meanLatency, 1.52);
    assert.equal(result.requests, 60123);
    assert.equal(result.bad, 3);
  });

  test("socket errors other than reads count as bad; a run without a result is an error", () => {
    const result = parseWrk(`${sample}\n  Socket errors: connect 1, read 9, write 2, timeout 4`);
    assert.equal(result.bad, 3 + 1 + 2 + 4);
    assert.throws(() => parseWrk("unable to connect to 127.0.0.1:1 Connection refused"), /wrk gave no result/);
  });
});

describe("summary", () => {
  const run = (server: string, workload: string, rps: number, round: number, scenario = "basic"): RunRecord => ({
    round,
    server,
    scenario,
    workload,
    rps,
    p99: 10,
    meanLatency: 2,
    bad: 0,
    rssMiB: 80,
    cpuUs: 1e6 / rps,
    requests: rps * 2,
  });

  test("medians, ratios against bare Koa, @koa/router and NestJS, and the goals they give", () => {
    const runs: RunRecord[] = [];
    [0, 1, 2].forEach((round) => {
      runs.push(run("bare-koa", "text", [100, 110, 90][round]!, round));
      runs.push(run("koa-router", "text", 70, round));
      runs.push(run("fw-a", "text", [95, 93, 94][round]!, round));
      runs.push(run("nest", "text", 10, round));
      runs.push(run("fw-a", "last-route", 90, round, "routes-10"));
      runs.push(run("fw-a", "last-route", 85, round, "routes-10000"));
    });
    const raw: RawResults = {
      runs,
      starts: [],
      tables: [{ round: 0, server: "fw-a", routes: 10_000, ms: 120 }],
      scaffolds: [],
      failures: [{ server: "fw-b", scenario: "basic", error: "build" }],
    };
    const summary = summarise(raw);
    const fwA = summary.rows.find((r) => r.server === "fw-a" && r.workload === "text")!;
    assert.equal(fwA.rps, 94);
    // Ratios pair the runs of the same round: 95/100, 93/110, 94/90 -> median 0.95.
    assert.ok(Math.abs(fwA.vsBareKoa! - 0.95) < 1e-9);
    assert.ok(Math.abs(fwA.vsNest! - 9.4) < 1e-9);
    assert.ok(Math.abs(fwA.cpuVsBareKoa! - 0.95) < 1e-9);
    assert.equal(summary.rows.find((r) => r.server === "bare-koa")!.spread, 20 / 100);
    const goal = (subject: string, text: string) =>
      summary.goals.find((g) => g.subject === subject && g.goal.includes(text))!;
    assert.equal(goal("fw-a text", "bare Koa").met, true);
    assert.equal(goal("fw-a text", "NestJS").met, true);
    assert.equal(goal("fw-a", "10,000-route rps").measured, "94%");
    assert.equal(goal("fw-a", "table").met, true);
    assert.deepEqual(summary.pending, ["fw-b"]);
    assert.equal(goal("fw-b text", "bare Koa").measured, "pending");
  });

  test("the db workload's rows carry their ratio against Fastify, paired by round, and the table prints it", () => {
    const runs: RunRecord[] = [];
    [0, 1, 2].forEach((round) => {
      runs.push(run("fastify", "db-read", 100, round, "db"));
      runs.push(run("fw-a", "db-read", [130, 140, 120][round]!, round, "db"));
    });
    const summary = summarise({ runs, starts: [], tables: [], scaffolds: [], failures: [] });
    const fwA = summary.rows.find((r) => r.server === "fw-a" && r.workload === "db-read")!;
    assert.ok(Math.abs(fwA.vsFastify! - 1.3) < 1e-9);
    assert.ok(Math.abs(fwA.cpuVsFastify! - 1.3) < 1e-9);
    assert.equal(fwA.vsBareKoa, undefined);
    assert.match(
      markdownTables(summary),
      /\| Redis session read \+ one PostgreSQL row \| fw-a \| 130 \|.*\| 1\.30x \|/,
    );
  });

  test("production goals: production defaults against bare Koa, db against Fastify, and workers 2 against 1 reported", () => {
    const runs: RunRecord[] = [];
    [0, 1, 2].forEach((round) => {
      runs.push(run("bare-koa", "prod-text", 100, round, "production"));
      runs.push(run("fw-a", "prod-text", 92, round, "production"));
      runs.push(run("fw-b", "prod-text", 80, round, "production"));
      runs.push(run("fastify", "db-read", 100, round, "db"));
      runs.push(run("fw-a", "db-read", 140, round, "db"));
    });
    const workers = [1, 2].flatMap((count) =>
      [0, 1, 2].map((round) => ({
        round,
        workers: count,
        rps: count === 1 ? 100 : 150,
        p99: 5,
        requests: 300,
        cpuUs: 20,
        bad: 0,
      })),
    );
    const summary = summarise({ runs, starts: [], tables: [], scaffolds: [], workers, failures: [] });
    const goal = (subject: string, text: string) =>
      summary.productionGoals!.find((g) => g.subject.startsWith(subject) && g.goal.includes(text))!;
    assert.equal(goal("fw-a", "bare Koa").met, true);
    assert.equal(goal("fw-b", "bare Koa").met, false);
    assert.equal(goal("fw-b", "bare Koa").measured, "80%");
    assert.equal(goal("fw-a", "Fastify").measured, "1.40x");
    assert.equal(goal("fw-b", "Fastify").met, "pending");
    assert.equal(goal("fw-a, built app", "workers").measured, "1.50x");
    assert.equal(goal("fw-a, built app", "workers").met, "reported");
    assert.deepEqual(
      summary.workers!.map((w) => [w.workers, w.rps, w.vsOne]),
      [
        [1, 100, 1],
        [2, 150, 1.5],
      ],
    );
    const tables = markdownTables(summary);
    assert.match(tables, /\| 2 \| 150 \| 1\.50x \|/);
    assert.match(tables, /Goals of the production workloads/);
  });

  test("the list with relations is reported against the same list by hand with knex, per framework", () => {
    const runs: RunRecord[] = [];
    [0, 1, 2].forEach((round) => {
      runs.push(run("fw-a", "db-relations", 80, round, "db"));
      runs.push(run("fw-a", "db-relations-knex", 100, round, "db"));
      runs.push(run("fw-b", "db-relations-knex", 100, round, "db"));
    });
    const summary = summarise({ runs, starts: [], tables: [], scaffolds: [], workers: [], failures: [] });
    const goal = (subject: string) =>
      summary.productionGoals!.find((g) => g.subject === subject && g.goal.includes("hand-written knex"))!;
    assert.equal(goal("fw-a").measured, "80%");
    assert.equal(goal("fw-a").measuredCpu, "80%");
    assert.equal(goal("fw-a").met, "reported");
    assert.equal(goal("fw-b").met, "pending");
    assert.match(
      markdownTables(summary),
      /\| list with relations: 100 tasks, project and assignees preloaded \(PostgreSQL\) \| fw-a \| 80 \|/,
    );
  });

  test("median of an even count is the mean of the middle two; non-numbers are left out", () => {
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([Number.NaN, 5]), 5);
    assert.ok(Number.isNaN(median([])));
  });
});
