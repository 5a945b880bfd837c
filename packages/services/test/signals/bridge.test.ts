import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { bridgeSignals } from "../../src/signals/bridge.js";
import { SignalRegistry } from "../../src/signals/signal.js";

const peerScript = fileURLToPath(new URL("../fixtures/signal-peer.ts", import.meta.url));

interface Line {
  event: string;
  origin?: string;
  payload?: { from: string; n: number };
}

/** A child process running signal-peer.ts, with a queue of the lines it printed. */
function startPeer(url: string, prefix: string) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", peerScript],
    { env: { ...process.env, SIGNALS_URL: url, SIGNALS_PREFIX: prefix }, stdio: "pipe" },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: Line[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout }).on("line", (text) => {
    lines.push(JSON.parse(text) as Line);
    for (const wake of waiters.splice(0)) wake();
  });
  child.on("exit", () => {
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    lines,
    /** Waits for the next line with this event (consuming earlier lines of other events too). */
    // The wait ends at the event; the deadline only ends a hang on a busy machine.
    async next(event: string, timeoutMs = 60_000): Promise<Line> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = lines.findIndex((line) => line.event === event);
        if (index >= 0) return lines.splice(0, index + 1)[index]!;
        if (child.exitCode !== null) throw new Error(`peer exited (${child.exitCode}) before "${event}": ${stderr}`);
        if (Date.now() > deadline) throw new Error(`peer printed no "${event}" within ${timeoutMs} ms: ${stderr}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    send(command: object) {
      child.stdin.write(`${JSON.stringify(command)}\n`);
    },
    async stop() {
      if (child.exitCode === null) {
        this.send({ close: true });
        child.stdin.end();
        await new Promise((resolve) => child.once("exit", resolve));
      }
    },
  };
}

describe("signals across processes over Redis", () => {
  test("two processes exchange a signal; a process ignores its own messages", serverSkip, async () => {
    const url = await requireServer("redis");
    const prefix = `services-bridge-test-${randomUUID()}`;
    const a = startPeer(url, prefix);
    const b = startPeer(url, prefix);
    try {
      await Promise.all([a.next("ready"), b.next("ready")]);

      a.send({ send: { from: "a", n: 1 } });
      // A's own receiver gets its local send once, not a second time from Redis.
      assert.deepEqual(await a.next("received"), { event: "received", origin: "local", payload: { from: "a", n: 1 } });
      await a.next("sent");
      assert.deepEqual(await b.next("received"), { event: "received", origin: "remote", payload: { from: "a", n: 1 } });

      b.send({ send: { from: "b", n: 2 } });
      assert.deepEqual(await b.next("received"), { event: "received", origin: "local", payload: { from: "b", n: 2 } });
      // Had A not ignored its own message, {from: "a"} would arrive here first.
      assert.deepEqual(await a.next("received"), { event: "received", origin: "remote", payload: { from: "b", n: 2 } });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  test("a payload JSON cannot hold is logged, the sender does not fail", serverSkip, async () => {
    const url = await requireServer("redis");
    const errors: string[] = [];
    const registry = new SignalRegistry({ error: (_d, message) => errors.push(message), warn: () => {} });
    const bridge = await bridgeSignals({
      url,
      names: ["test.cyclic"],
      registry,
      prefix: `services-bridge-${randomUUID()}`,
    });
    try {
      const cyclic: { self?: unknown } = {};
      cyclic.self = cyclic;
      await registry.get("test.cyclic").send(cyclic);
      assert.equal(errors.length, 1);
      assert.match(errors[0]!, /test\.cyclic/);
    } finally {
      await bridge.close();
    }
  });

  test("a URL that is not Redis is refused, an unreachable Redis is reported at start", async () => {
    await assert.rejects(bridgeSignals({ url: "http://127.0.0.1", names: [] }), { code: "E_SERVICE_URL_INVALID" });
    const quiet = new SignalRegistry({ error: () => {}, warn: () => {} });
    await assert.rejects(bridgeSignals({ url: "redis://127.0.0.1:1", names: [], registry: quiet }), {
      code: "E_SERVICE_UNREACHABLE",
    });
  });
});
