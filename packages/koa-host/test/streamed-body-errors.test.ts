import assert from "node:assert/strict";
import { get } from "node:http";
import { Readable, Writable } from "node:stream";
import { test } from "node:test";
import { pino } from "pino";
import { startHost, TestView } from "./fixtures.js";

class Stream extends TestView {
  /** One chunk, then nothing: the body never ends until the client leaves. */
  endless() {
    this.ctx.type = "text/plain";
    const body = new Readable({ read() {} });
    body.push("first chunk");
    this.ctx.body = body;
  }

  /** One chunk, then the source fails. */
  failing() {
    this.ctx.type = "text/plain";
    const body = new Readable({ read() {} });
    body.push("first chunk");
    setTimeout(() => body.destroy(new Error("disk read failed")), 20);
    this.ctx.body = body;
  }
}

test("a client that leaves during a streamed body is not logged; a body that fails after its headers is, in the app's log", async (t) => {
  const lines: Array<{ level: number; msg: string; err?: { message?: string } }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const printed: unknown[] = [];
  t.mock.method(console, "error", (...args: unknown[]) => void printed.push(args));
  const { host, url } = await startHost({ Stream }, { logger: pino({ level: "info" }, sink) });
  const firstChunk = (path: string, leave: boolean) =>
    new Promise<void>((resolve) => {
      const request = get(`${url}${path}`, (response) => {
        response.once("data", () => {
          if (leave) request.destroy();
        });
        response.on("error", () => resolve());
        response.on("close", () => resolve());
      });
      request.on("error", () => resolve());
    });
  try {
    await firstChunk("/stream/endless", true);
    await firstChunk("/stream/failing", false);
    // Waits for the failing body's line (the deadline only ends a hang): a fixed pause can end
    // before a busy machine has logged it.
    const deadline = Date.now() + 30_000;
    while (!lines.some((line) => line.level >= 50) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    await host.close();
  }
  assert.deepEqual(printed, [], "nothing on Koa's console.error");
  const errors = lines.filter((line) => line.level >= 50);
  // Koa reports a failing body from both the body's error event and its pipeline: the same error.
  assert.ok(errors.length >= 1, JSON.stringify(lines));
  assert.deepEqual([...new Set(errors.map((line) => line.err?.message))], ["disk read failed"], JSON.stringify(errors));
});
