import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { serve } from "../helpers.js";
import type { RequestFinishedPayload, RequestStartedPayload } from "../../src/signals/names.js";
import { requestSignals } from "../../src/signals/request-signals.js";
import { SignalRegistry } from "../../src/signals/signal.js";

describe("request signals", () => {
  test("started and finished are sent around each request; throwing receivers break nothing", async () => {
    const failures: string[] = [];
    const signals = new SignalRegistry({ error: (_d, message) => failures.push(message), warn: () => {} });
    const started: RequestStartedPayload[] = [];
    const finished: RequestFinishedPayload[] = [];
    signals.get<RequestStartedPayload>("request.started").connect((p) => void started.push(p));
    signals.get<RequestStartedPayload>("request.started").connect(() => {
      throw new Error("receiver bug");
    });
    signals.get<RequestFinishedPayload>("request.finished").connect((p) => void finished.push(p));
    signals.get<RequestFinishedPayload>("request.finished").connect(async () => {
      throw new Error("another receiver bug");
    });
    const app = await serve(requestSignals(signals), (ctx) => {
      if (ctx.path === "/boom") throw Object.assign(new Error("teapot"), { status: 418 });
      ctx.body = "ok";
    });
    try {
      const response = await fetch(`${app.base}/hello?x=1`);
      assert.equal(response.status, 200);
      assert.equal(await response.text(), "ok");
      assert.equal((await fetch(`${app.base}/boom`)).status, 418);
    } finally {
      await app.close();
    }
    assert.deepEqual(
      started.map((s) => [s.method, s.path]),
      [
        ["GET", "/hello"],
        ["GET", "/boom"],
      ],
    );
    assert.deepEqual(
      finished.map((f) => [f.path, f.status]),
      [
        ["/hello", 200],
        ["/boom", 418],
      ],
    );
    assert.ok(finished.every((f) => f.durationMs >= 0));
    assert.equal(failures.length, 4);
  });
});
