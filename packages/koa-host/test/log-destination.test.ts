// Where an app's JSON log lines go: standard output, the lines of one event-loop turn written
// together when the turn ends. No line is lost or reordered on the way: at a turn's end, when a turn
// logs more than the buffer holds, at any kind of exit, while the reader of a pipe is behind; a
// reader that has gone away or a descriptor that fails stops no request.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { turnLines } from "../src/log-destination.js";

const destination = new URL("../src/log-destination.ts", import.meta.url).href;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const line = (i: number, pad = 0) => `${JSON.stringify({ i, pad: "x".repeat(pad) })}\n`;

/** A child process that imports the destination and runs `body` with `lines` (its standard output's). */
function child(body: string) {
  const script = [
    `const { stdoutTurnLines } = await import(${JSON.stringify(destination)});`,
    "const lines = stdoutTurnLines();",
    'const line = (i, pad = 0) => JSON.stringify({ i, pad: "x".repeat(pad) }) + "\\n";',
    body,
  ].join("\n");
  return [`--import=${import.meta.resolve("tsx")}`, "--input-type=module", "-e", script];
}

/** The numbers of the JSON lines of `text`, checking each line is whole. */
const numbers = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { i: number }).i);

/** Runs `body` with a {@link turnLines} over a new file, and a reader of the file's text. */
async function withLogFile(body: (lines: ReturnType<typeof turnLines>, text: () => string) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), "fwkit-log-"));
  const file = join(dir, "out.log");
  const fd = openSync(file, "w");
  try {
    await body(turnLines(fd), () => readFileSync(file, "utf8"));
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true });
  }
}

test("the lines of a turn reach the file when the turn ends, in order, and not before", () =>
  withLogFile(async (lines, text) => {
    for (let i = 0; i < 3; i++) lines.write(line(i));
    assert.equal(text(), "", "held until the turn ends");
    await turn();
    assert.deepEqual(numbers(text()), [0, 1, 2]);
    lines.write(line(3));
    lines.flushSync();
    assert.deepEqual(numbers(text()), [0, 1, 2, 3], "flushSync writes at once");
  }));

test("a turn that logs more than 64 KB writes as it goes; a line larger than the buffer arrives whole", () =>
  withLogFile(async (lines, text) => {
    for (let i = 0; i < 200; i++) lines.write(line(i, 500));
    const before = numbers(text());
    assert.ok(before.length >= 100, `written within the turn: ${before.length} lines`);
    lines.write(line(200, 400_000));
    lines.write(`${JSON.stringify({ i: 201, text: "été 🌞 \u0001" })}\n`);
    await turn();
    assert.deepEqual(numbers(text()), [...Array(202).keys()]);
  }));

test("lines logged just before the process ends are written: process.exit and an uncaught exception", () => {
  for (const [end, code] of [
    ["process.exit(3);", 3],
    ["throw new Error('boom');", 1],
  ] as const) {
    const result = spawnSync(
      process.execPath,
      child(`for (let i = 0; i < 500; i++) lines.write(line(i, 50));\n${end}`),
      {
        encoding: "utf8",
      },
    );
    assert.equal(result.status, code, result.stderr);
    assert.deepEqual(numbers(result.stdout), [...Array(500).keys()], end);
  }
});

test("while the reader of a pipe is behind, lines wait for it: none lost, none out of order", async () => {
  // About 1.5 MB over 30 turns into a 64 KB pipe nobody reads for the first 500 ms.
  const proc = spawn(
    process.execPath,
    child(
      `let i = 0;\nfor (let t = 0; t < 30; t++) { for (let k = 0; k < 100; k++) lines.write(line(i++, 480)); await new Promise((r) => setImmediate(r)); }\nprocess.stderr.write("wrote " + i);`,
    ),
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  proc.stdout.pause();
  let err = "";
  proc.stderr.on("data", (chunk) => (err += chunk));
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(err, "", "the writer waits for the reader");
  let out = "";
  proc.stdout.on("data", (chunk) => (out += chunk));
  proc.stdout.resume();
  const code = await new Promise((resolve) => proc.on("close", resolve));
  assert.equal(code, 0, err);
  assert.equal(err, "wrote 3000");
  assert.deepEqual(numbers(out), [...Array(3000).keys()]);
});

test("a reader that goes away stops the lines, not the process", async () => {
  const proc = spawn(
    process.execPath,
    child(
      `for (let t = 0; t < 200; t++) { lines.write(line(t, 2000)); await new Promise((r) => setTimeout(r, 2)); }\nprocess.stderr.write("still running");`,
    ),
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  proc.stderr.on("data", (chunk) => (err += chunk));
  await new Promise((resolve) => proc.stdout.once("data", resolve));
  proc.stdout.destroy();
  const code = await new Promise((resolve) => proc.on("close", resolve));
  assert.equal(code, 0, err);
  assert.equal(err, "still running");
});

test("a descriptor that fails drops its lines and says so once on standard error, throwing nothing", async () => {
  const dir = mkdtempSync(join(tmpdir(), "fwkit-log-"));
  // Open for reading only: every write to it fails (EBADF), and the number stays this test's.
  closeSync(openSync(join(dir, "out.log"), "w"));
  const fd = openSync(join(dir, "out.log"), "r");
  const told: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => told.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    const lines = turnLines(fd);
    for (let t = 0; t < 3; t++) {
      lines.write(line(t));
      await turn();
    }
  } finally {
    process.stderr.write = write;
    closeSync(fd);
    rmSync(dir, { recursive: true });
  }
  assert.equal(told.length, 1, told.join(""));
  assert.match(told[0]!, /Log lines could not be written to file descriptor \d+ \(EBADF\); they are dropped/);
});

test("two processes on one pipe (workers on one standard output): no line is cut by the other's", async () => {
  const dir = mkdtempSync(join(tmpdir(), "fwkit-log-"));
  try {
    const script = join(dir, "writer.mjs");
    writeFileSync(
      script,
      [
        `const { stdoutTurnLines } = await import(${JSON.stringify(destination)});`,
        "const lines = stdoutTurnLines();",
        "const w = Number(process.argv[2]);",
        "for (let t = 0, i = 0; t < 40; t++) {",
        '  for (let k = 0; k < 100; k++) lines.write(JSON.stringify({ w, i: i++, pad: "x".repeat(300 + (i % 7) * 100) }) + "\\n");',
        "  await new Promise((r) => setImmediate(r));",
        "}",
      ].join("\n"),
    );
    const node = `"${process.execPath}" --import=${import.meta.resolve("tsx")} "${script}"`;
    const proc = spawn("sh", ["-c", `${node} 1 & ${node} 2 & wait`], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    proc.stderr.on("data", (chunk) => (err += chunk));
    assert.equal(await new Promise((resolve) => proc.on("close", resolve)), 0, err);
    const seen = new Map<number, number[]>([
      [1, []],
      [2, []],
    ]);
    for (const text of out.split("\n").filter(Boolean)) {
      const { w, i } = JSON.parse(text) as { w: number; i: number };
      seen.get(w)!.push(i);
    }
    assert.deepEqual(seen.get(1), [...Array(4000).keys()]);
    assert.deepEqual(seen.get(2), [...Array(4000).keys()]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
