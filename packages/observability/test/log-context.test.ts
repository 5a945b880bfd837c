// Request context on the app logger's lines: logContext alone gives them the request's reqId (once,
// also on ctx.log lines, which carry it already); with everything off a line has neither.
import assert from "node:assert/strict";
import { test } from "node:test";
import { captureLogs, startApp, TestView } from "./fixtures.js";

let appLogger: { info(message: string): void } | undefined;

class Home extends TestView {
  async index() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    appLogger?.info("from the app logger, after an await");
    this.ctx.log.info("from ctx.log");
    return {};
  }
}

for (const [logContext, expected] of [
  [true, "the request's reqId"],
  [false, "no reqId"],
] as const) {
  test(`logContext: ${logContext}: the app logger's line inside a request has ${expected}`, async () => {
    const logs = captureLogs();
    const app = await startApp({ Home }, { logContext }, { logs });
    appLogger = app.host.logger;
    try {
      const res = await fetch(`${app.url}/home`);
      assert.equal(res.status, 200);
      const reqId = res.headers.get("x-request-id");
      const own = logs.lines.find((line) => line["msg"] === "from the app logger, after an await");
      assert.ok(own, JSON.stringify(logs.lines));
      assert.equal(own["reqId"], logContext ? reqId : undefined);
      const viaCtx = logs.lines.find((line) => line["msg"] === "from ctx.log")!;
      assert.equal(viaCtx["reqId"], reqId);
      const written = logs.raw.find((line) => line.includes('"from ctx.log"'))!;
      assert.equal(written.split('"reqId"').length - 1, 1, `reqId once: ${written}`);
      assert.equal(
        app.plugin.phases?.front?.(undefined as never) === undefined,
        !logContext,
        "nothing is installed when everything is off",
      );
    } finally {
      await app.host.close();
    }
  });
}
