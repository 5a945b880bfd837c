/**
 * Development-only routes answer only this machine: an app of the framework built in development
 * (a log: mail catcher, a Redis job queue with its dashboard, the OpenAPI page on by default) is
 * asked for every development tool its plugins declare (`devTools()`: so a tool added later is
 * covered), once from a client on another machine and once from this one. Traffic stays on
 * 127.0.0.1: the other machine is a socket whose peer address is set to 203.0.113.9, and it also
 * sends `X-Forwarded-For: 127.0.0.1` through a trusted proxy setting, which must not be believed.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runtimeOf } from "@fwkit/koa-host/plugin";
import { requireServer } from "@fwkit/test-servers";
import { createApp as createFwA } from "fw-a";
import { createApp as createFwB } from "fw-b";
import type { Framework } from "../target.js";
import { dropRedisPrefix } from "./stores.js";

/** The tools every development app of the suite serves (the scan covers whatever else is declared). */
const EXPECTED = ["/_mail", "/jobs", "/openapi.json", "/docs"];

interface DevApp {
  readonly callback: (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;
  readonly tools: readonly string[];
  close(): Promise<void>;
}

async function buildDevApp(framework: Framework, extra: Record<string, unknown>, prefix: string): Promise<DevApp> {
  const root = mkdtempSync(join(tmpdir(), `suite-dev-tools-${framework}-`));
  const config = {
    env: "development",
    logRequests: false,
    secretKey: randomBytes(32).toString("base64url"),
    batteries: { data: false },
    trustProxy: 1,
    mailUrl: "log:",
    mailFrom: "Suite <suite@example.test>",
    queueUrl: `${await requireServer("redis")}?prefix=${prefix}`,
    ...extra,
  };
  const create = framework === "fw-a" ? createFwA : createFwB;
  const host = await create({ root, config } as never);
  const plugins = runtimeOf(host.koa.context).plugins as ReadonlyArray<{ devTools?: () => readonly string[] }>;
  return {
    callback: host.callback(),
    tools: plugins.flatMap((plugin) => plugin.devTools?.() ?? []).map((tool) => tool.split(" ")[0]!),
    async close() {
      await host.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Serves `app` on 127.0.0.1; with `peer`, every request's socket reports that remote address. */
async function serve(app: DevApp, peer?: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (peer) Object.defineProperty(req.socket, "remoteAddress", { value: peer, configurable: true });
    app.callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Registers the development-tool cases for `framework`. */
export function devToolCases(framework: Framework): void {
  test("every development tool refuses a client on another machine (X-Forwarded-For not believed) and answers this one", async () => {
    const prefix = `suite-devtools-${randomBytes(5).toString("hex")}`;
    const app = await buildDevApp(framework, {}, prefix);
    const remote = await serve(app, "203.0.113.9");
    const local = await serve(app);
    try {
      for (const path of EXPECTED) assert.ok(app.tools.includes(path), `${path} is declared: ${app.tools.join(", ")}`);
      for (const path of app.tools) {
        const refused = await fetch(`${remote.url}${path}`, { headers: { "x-forwarded-for": "127.0.0.1" } });
        assert.equal(refused.status, 403, `${path} from another machine`);
        await refused.arrayBuffer();
        const answered = await fetch(`${local.url}${path}`);
        assert.notEqual(answered.status, 403, `${path} from this machine`);
        assert.ok(answered.status < 500, `${path} from this machine: ${answered.status}`);
        await answered.arrayBuffer();
      }
    } finally {
      remote.server.close();
      local.server.close();
      await app.close();
      dropRedisPrefix(prefix);
    }
  });

  test("devTools: { remote: true } is the explicit switch that opens them to other machines", async () => {
    const prefix = `suite-devtools-${randomBytes(5).toString("hex")}`;
    const app = await buildDevApp(framework, { devTools: { remote: true } }, prefix);
    const remote = await serve(app, "203.0.113.9");
    try {
      for (const path of app.tools) {
        const answered = await fetch(`${remote.url}${path}`);
        assert.notEqual(answered.status, 403, path);
        await answered.arrayBuffer();
      }
    } finally {
      remote.server.close();
      await app.close();
      dropRedisPrefix(prefix);
    }
  });
}
