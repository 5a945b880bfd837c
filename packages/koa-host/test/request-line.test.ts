// The request line a logger made by the host is written with (`requestLine`) holds what pino's
// own path writes for the same request, field for field and in the same order: the same requests
// are logged once through the direct writer and once through pino (a subscriber on pino's
// `pino_asJson` tracing channel sends every line there), and the two lines compared.
import assert from "node:assert/strict";
import { tracingChannel } from "node:diagnostics_channel";
import { request } from "node:http";
import { test } from "node:test";
import type { DestinationStream } from "pino";
import { jsonLogger } from "../src/logger.js";
import type { HostPlugin } from "../src/plugin-api.js";
import { defineSlot } from "../src/slot.js";
import { route, startHost, TestView } from "./fixtures.js";

const memberSlot = defineSlot<{ id: number | string }>("koa-host-test.line-member");
const extraSlot = defineSlot<Record<string, unknown>>("koa-host-test.line-extra");
const plugin: HostPlugin = {
  name: "members",
  requestLogFields: () => (ctx) => {
    const member = memberSlot.get(ctx);
    return { ...(member ? { userId: member.id } : {}), ...extraSlot.get(ctx) };
  },
};

class Index extends TestView {
  index() {
    return "hello";
  }
  member() {
    memberSlot.set(this.ctx, { id: 'ada "the first" \\ 7' });
    return "members only";
  }
  // A plugin field pino alone may write (an object), and one that would replace a line field.
  @route("/odd/:kind")
  odd(kind: string) {
    extraSlot.set(this.ctx, kind === "object" ? { team: { id: 3, tags: ["a"] } } : { route: "forged" });
    return kind;
  }
  @route("/reset/:token")
  reset(_token: string) {
    return "reset";
  }
  boom() {
    throw new Error("boom");
  }
}

/** Sends a raw request (any path bytes, any header), resolves when the answer has been read. */
function send(url: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers, insecureHTTPParser: true }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject);
    req.end();
  });
}

/** A destination that keeps its lines (what the host writes to standard output in an app). */
function capture(): DestinationStream & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    write(line: string) {
      lines.push(line);
    },
  };
}

/** The line with the fields that differ between two logs of the same request taken out. */
function comparable(line: string): Record<string, unknown> {
  const fields = JSON.parse(line) as Record<string, unknown>;
  assert.equal(typeof fields["ms"], "number", line);
  assert.match(String(fields["reqId"]), /^[\w-]+-[0-9a-z]+$/, line);
  assert.match(String(fields["time"]), /^\d{4}-\d\d-\d\dT/, line);
  for (const key of ["ms", "reqId", "time"]) fields[key] = "(varies)";
  return fields;
}

test("the direct request line and pino's line of the same request hold the same fields in the same order", async () => {
  const out = capture();
  let traced: Record<string, unknown> = {};
  // Like the trace fields of the observability battery: the request id only on lines that lack it.
  const mixin = (line?: { reqId?: unknown }) =>
    line?.reqId === undefined ? { ...traced, reqId: "from-mixin" } : traced;
  const logger = jsonLogger({ env: "production", logLevel: "info" }, "app", mixin, out);
  const { host, url } = await startHost(
    { Index },
    { logger, plugins: [plugin], config: { env: "test", logRequests: true, trustProxy: 1 } },
  );
  // Lines that went through pino's `info` (the direct writer never calls it).
  let viaInfo = 0;
  const info = logger.info.bind(logger);
  logger.info = ((...args: Parameters<typeof info>) => {
    viaInfo++;
    return info(...args);
  }) as typeof logger.info;
  const pinoOnly = new Set([
    "a plugin field only pino may write",
    "a plugin field named like a line field",
    "a trace field named like a line field",
  ]);
  const viaPino = tracingChannel("pino_asJson");
  const subscriber = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
  const cases: Array<[string, () => Promise<void>]> = [
    ["plain GET", () => send(url, "/")],
    [
      "forwarded client, odd user agent",
      () => send(url, "/", { "x-forwarded-for": "203.0.113.9", "user-agent": 'probe "1.0" \\ \t café' }),
    ],
    ["a quote and a backslash in the path", () => send(url, '/no/"such\\path')],
    ["a logged-in user with an odd id", () => send(url, "/member")],
    ["a secret in the path", () => send(url, "/reset/abc123")],
    ["a plugin field only pino may write", () => send(url, "/odd/object")],
    ["a plugin field named like a line field", () => send(url, "/odd/clash")],
    ["an error", () => send(url, "/boom")],
    ["HEAD", () => send(url, "/", {}, "HEAD")],
    [
      "trace fields",
      async () => {
        traced = { trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", sampled: true };
        await send(url, "/");
        traced = {};
      },
    ],
    [
      "a trace field named like a line field",
      async () => {
        traced = { trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", status: "forged" };
        await send(url, "/");
        traced = {};
      },
    ],
  ];
  try {
    for (const [name, run] of cases) {
      out.lines.length = 0;
      viaInfo = 0;
      await run();
      assert.equal(viaInfo, pinoOnly.has(name) ? 1 : 0, `${name}: written ${viaInfo ? "by pino" : "directly"}`);
      viaPino.subscribe(subscriber);
      try {
        await run();
      } finally {
        viaPino.unsubscribe(subscriber);
      }
      const [direct, pino] = out.lines.filter((line) => line.includes('"status":'));
      assert.ok(direct && pino, `${name}: two request lines, got ${JSON.stringify(out.lines)}`);
      assert.deepEqual(Object.keys(comparable(direct)), Object.keys(comparable(pino)), `${name}: key order`);
      assert.deepEqual(comparable(direct), comparable(pino), `${name}:\n${direct}${pino}`);
      assert.ok(direct.endsWith("}\n"), name);
    }
    // What the cases were about is in the line.
    out.lines.length = 0;
    await send(url, "/reset/abc123");
    assert.match(out.lines.join(""), /"path":"\/reset\/:token"/);
    assert.doesNotMatch(out.lines.join(""), /abc123/);
  } finally {
    await host.close();
  }
});

test("a level raised above info at run time stops the direct request line", async () => {
  const out = capture();
  const logger = jsonLogger({ env: "production", logLevel: "info" }, "app", undefined, out);
  const { host, url } = await startHost({ Index }, { logger, config: { env: "test", logRequests: true } });
  try {
    await send(url, "/");
    assert.equal(out.lines.filter((line) => line.includes('"status":200')).length, 1);
    logger.level = "warn";
    await send(url, "/");
    assert.equal(out.lines.filter((line) => line.includes('"status":200')).length, 1);
  } finally {
    await host.close();
  }
});
