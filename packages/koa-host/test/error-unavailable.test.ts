// A coded 503 (an outside part unavailable, such as the database during a restart) is logged at
// warn naming its code and cause, not as an error with a stack; the client sees neither.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { pino } from "pino";
import { createError } from "routing-kernel";
import { startHost, TestView } from "./fixtures.js";

const E_PART_DOWN = createError(
  "E_PART_DOWN",
  503,
  (why: string) => `Cannot reach the part (${why}). Check that it runs.`,
);

test("a coded 503 is one warn line naming its code and cause; the answer does not show them", async () => {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  class Down extends TestView {
    index(): string {
      throw new E_PART_DOWN("Connection terminated unexpectedly");
    }
  }
  const { host, url } = await startHost(
    { Down },
    {
      logger: pino({ level: "info" }, stream),
      config: { env: "production", secretKey: crypto.randomUUID(), logRequests: false },
    },
  );
  try {
    const res = await fetch(`${url}/down`);
    assert.equal(res.status, 503);
    assert.doesNotMatch(await res.text(), /Connection terminated|E_PART_DOWN/);
    const about = lines.filter((line) => String(line["msg"]).includes("/down"));
    assert.equal(about.length, 1, JSON.stringify(lines));
    assert.equal(about[0]!["level"], 40);
    assert.match(
      String(about[0]!["msg"]),
      /503 on GET \/down: E_PART_DOWN: Cannot reach the part \(Connection terminated unexpectedly\)/,
    );
  } finally {
    await host.close();
  }
});
