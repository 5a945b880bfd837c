// The realtime battery's figures on its telemetry channel become metrics: open connections as a
// gauge (and by transport), messages written and streams dropped as counters, broadcast latencies
// as a histogram (the realtime battery's own tests check what
// it publishes; this one what the metrics make of it).
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { report, telemetry } from "@fwkit/battery-kit";
import { startApp, TestView } from "./fixtures.js";

class Home extends TestView {
  index() {
    return {};
  }
}

test("realtime streams, messages sent and streams dropped are scraped", async () => {
  const app = await startApp({ Home }, { metrics: { enabled: true, port: 0, host: "127.0.0.1" } });
  after(() => app.host.close());
  report(telemetry.realtime, () => ({ connections: 3, sent: 5, dropped: 0 }));
  report(telemetry.realtime, () => ({
    connections: 2,
    sent: 2,
    dropped: 1,
    transports: { sse: 1, websocket: 1 },
    latencies: [0.002, 0.3],
  }));
  const text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
  const value = (name: string) => new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1];
  assert.equal(value("realtime_connections"), "2");
  assert.equal(value("realtime_messages_sent_total"), "7");
  assert.equal(value("realtime_streams_dropped_total"), "1");
  assert.match(text, /^realtime_connections_by_transport\{transport="websocket"\} 1$/m);
  assert.match(text, /^realtime_connections_by_transport\{transport="sse"\} 1$/m);
  assert.equal(value("realtime_broadcast_latency_seconds_count"), "2");
  assert.match(text, /^realtime_broadcast_latency_seconds_bucket\{le="0.005"\} 1$/m);
});
