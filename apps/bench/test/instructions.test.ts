import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cpuRows, partCosts, selectedRows, startRowsOf } from "../src/cpu-mode.js";
import { callgrindTotal, countRows, fixedLoad, parseInstructionsOptions } from "../src/instructions-mode.js";

const scratch = mkdtempSync(join(tmpdir(), "bench-instructions-test-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe("instruction counts", () => {
  test("options are checked; an unknown one is refused naming the known ones", () => {
    const o = parseInstructionsOptions(["--warmup=10", "--windows=3", "--parts"]);
    assert.equal(o.warmup, 10);
    assert.equal(o.windows, 3);
    assert.equal(o.parts, true);
    assert.equal(o.start, true);
    assert.throws(() => parseInstructionsOptions(["--window=3"]), /Unknown argument "--window=3"; known: .*--windows=/);
    assert.throws(() => parseInstructionsOptions(["--requests=0"]), /--requests needs a positive whole number/);
    assert.throws(() => parseInstructionsOptions(["--jobs=1.5"]), /--jobs needs a positive whole number/);
  });

  test("rows are selected, started and taken apart the same way in every mode", () => {
    const rows = selectedRows(true, ["fw-a-prod"]);
    assert.deepEqual(
      rows.map((row) => row.key),
      [
        "koa",
        "koa-prod",
        "fw-a-prod",
        "fw-a-prod-without-request-line",
        "fw-a-prod-without-security-headers",
        "fw-a-prod-without-security-battery",
      ],
    );
    assert.deepEqual(
      startRowsOf(rows).map((row) => row.key),
      ["koa", "fw-a-prod"],
    );
    const values = new Map([
      ["koa", 100],
      ["fw-a-off", 110],
      ["fw-a-prod", 200],
      ["fw-a-prod-without-request-line", 180],
      ["fw-a-prod-without-security-headers", 150],
      ["fw-a-prod-without-security-battery", 140],
    ]);
    assert.deepEqual(
      partCosts([...rows, ...cpuRows().filter((row) => row.key === "fw-a-off")], values).map(({ label, cost }) => [
        label.replace(/ \(.*/, ""),
        cost,
      ]),
      [
        ["fw-a: routing, dispatch and the request id", 10],
        ["fw-a: the request log line", 20],
        ["fw-a: the security headers", 50],
        ["fw-a: the security battery", 60],
        ["fw-a: the session check and CSRF guard", 10],
      ],
    );
    assert.deepEqual(partCosts(selectedRows(false, undefined), values), [], "no parts without --parts");
  });

  test("a callgrind dump's total is read from its summary or totals line", () => {
    const dump = join(scratch, "callgrind.out.1");
    writeFileSync(dump, "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 123456789\nfn=(1) main\n0 5\n");
    assert.equal(callgrindTotal(dump), 123_456_789);
    writeFileSync(dump, "events: Ir\nfn=(1) main\n0 5\ntotals: 42\n");
    assert.equal(callgrindTotal(dump), 42);
    writeFileSync(dump, "not a dump\n");
    assert.throws(() => callgrindTotal(dump), /holds no instruction total/);
  });

  test("the fixed load sends exactly the requests asked for, and fails on an answer that is not 2xx", async () => {
    let answered = 0;
    let failFrom = Number.POSITIVE_INFINITY;
    const server = createServer((_req, res) => {
      answered++;
      res.statusCode = answered >= failFrom ? 500 : 200;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      await fixedLoad(url, 37, 4);
      assert.equal(answered, 37);
      answered = 0;
      failFrom = 5;
      await assert.rejects(fixedLoad(url, 20, 2), /answered 500 under load/);
    } finally {
      server.close();
    }
  });

  test("under callgrind, a server's requests are counted window by window, and its start to the first 200", async () => {
    // Few requests: this checks the counting, not the figures (V8 compiles for thousands of requests first).
    const rows = cpuRows().filter((row) => row.key === "koa");
    const o = parseInstructionsOptions(["--warmup=100", "--windows=2", "--requests=100", "--connections=4"]);
    const { windows, starts } = await countRows(rows, rows, o);
    const koa = windows.get("koa")!;
    assert.equal(koa.length, 2);
    // A Koa request takes tens of thousands of instructions at the least; a window missed or counted
    // twice would be off by the whole process's start (hundreds of millions).
    for (const value of koa) assert.ok(value > 20_000 && value < 5_000_000, `${value} per request`);
    // Node's own start alone is tens of millions of instructions.
    assert.ok(starts.get("koa")! > 50_000_000, `start ${starts.get("koa")}`);
  });
});

describe("the tracing rows' configs", () => {
  test("BENCH_VIEW_SPANS=1 (the traced-views rows) turns on tracing.viewSpans; without it a request has one span", async () => {
    const { benchConfig } = await import("../src/servers/framework.js");
    const tracing = () => (benchConfig("production-tracing") as { tracing: Record<string, unknown> }).tracing;
    assert.equal(tracing()["viewSpans"], undefined);
    process.env["BENCH_VIEW_SPANS"] = "1";
    try {
      assert.equal(tracing()["viewSpans"], true);
    } finally {
      delete process.env["BENCH_VIEW_SPANS"];
    }
    assert.deepEqual(
      cpuRows()
        .filter((row) => row.env?.["BENCH_VIEW_SPANS"])
        .map((row) => [row.key, row.addsTo]),
      [
        ["fw-a-traced-views", "fw-a-prod"],
        ["fw-b-traced-views", "fw-b-prod"],
      ],
    );
  });
});
