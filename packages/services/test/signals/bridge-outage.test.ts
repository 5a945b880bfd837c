// While Redis is down, each signal sent across processes logged a failing receiver and
// each reconnect attempt an error. Now the bridge's outage is one line when it starts and one when
// Redis is back. The test runs its own redis-server and stops and starts it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startRedis } from "@fwkit/test-servers";
import { bridgeSignals } from "../../src/signals/bridge.js";
import { SignalRegistry } from "../../src/signals/signal.js";

test("a Redis outage under the signal bridge is logged once when it starts and once when it ends", async () => {
  const redis = await startRedis();
  const lines: string[] = [];
  const logger = {
    error: (_details: object, message: string) => lines.push(`error ${message}`),
    warn: (_details: object, message: string) => lines.push(`warn ${message}`),
    info: (_details: object, message: string) => lines.push(`info ${message}`),
  };
  const registry = new SignalRegistry(logger);
  const bridge = await bridgeSignals({
    url: redis.url,
    names: ["test.outage"],
    prefix: "outage-test",
    registry,
    logger,
  });
  const ping = registry.get<{ n: number }>("test.outage");
  let delivered = 0;
  ping.connect(() => void delivered++);
  try {
    await redis.stop();
    for (let n = 0; n < 5; n++) await ping.send({ n });
    assert.equal(delivered, 5, "local receivers still get every signal");
    const down = lines.filter((line) => !line.startsWith("info"));
    assert.equal(
      down.filter((line) => /signal bridge: Redis at .* failed .*it is down/.test(line)).length,
      1,
      down.join("\n"),
    );
    assert.deepEqual(
      down.filter((line) => !/failed .*it is down|is still down after/.test(line)),
      [],
      "no line per signal or reconnect attempt",
    );

    lines.length = 0;
    await redis.start();
    // Waits for the reconnection's line; the deadline only ends a hang.
    const deadline = Date.now() + 60_000;
    while (!lines.some((line) => line.includes("is back")) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(lines.filter((line) => line.includes("is back")).length, 1, lines.join("\n"));
  } finally {
    await redis.start();
    await bridge.close();
    await redis.close();
  }
});
