// Development tools answer only clients on this machine, decided from the socket's peer address
// (a forged X-Forwarded-For is not believed, even behind a trusted proxy), unless devTools.remote
// is on; a server bound to another address warns, naming them. The requests stay on 127.0.0.1: a
// client on another machine is stood in for by setting the socket's peer address.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { describe, test } from "node:test";
import { type Logger, pino } from "pino";
import type { Host } from "../../src/index.js";
import { createHost } from "../../src/plugin-api.js";
import type { HostPlugin } from "../../src/plugin.js";
import { devToolsBindWarning, isLoopbackAddress, isLoopbackHost, loopbackOnly } from "../../src/dev-access/index.js";
import { conventions, testResponder } from "../fixtures.js";

/** A plugin serving a development tool at /_tool, guarded as the batteries guard theirs. */
function toolPlugin(): HostPlugin {
  let guarded: ReturnType<typeof loopbackOnly> | undefined;
  return {
    name: "tool",
    setup({ config }) {
      guarded = loopbackOnly("/_tool", config, async (ctx, next) => {
        if (ctx.path !== "/_tool") return next();
        ctx.body = "live reset link https://app.example/reset-password/secret";
      });
    },
    phases: { request: () => (guarded ? [guarded] : []) },
    devTools: () => ["/_tool (a test tool)"],
  };
}

async function build(config: Record<string, unknown>, logger?: Logger): Promise<Host> {
  return createHost({
    root: new URL("../app", import.meta.url).pathname,
    conventions,
    responder: () => testResponder,
    modules: [],
    plugins: [toolPlugin()],
    config: { env: "development", logRequests: false, ...config },
    ...(logger ? { logger } : {}),
  });
}

/** Serves the host on 127.0.0.1; a request's socket gets `peer` as its remote address when given. */
async function serveAs(host: Host, peer: string | undefined): Promise<{ server: Server; url: string }> {
  const handler = host.callback();
  const server = createServer((req, res) => {
    if (peer) Object.defineProperty(req.socket, "remoteAddress", { value: peer, configurable: true });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("development tools and the client's address", () => {
  test("loopback addresses are 127.0.0.0/8 and ::1 (also IPv4-mapped); anything else is not", () => {
    for (const address of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1", "[::1]"])
      assert.equal(isLoopbackAddress(address), true, address);
    for (const address of ["203.0.113.9", "10.0.0.1", "::ffff:10.0.0.1", "0.0.0.0", "::", "128.0.0.1", "", undefined])
      assert.equal(isLoopbackAddress(address), false, String(address));
    assert.equal(isLoopbackHost("localhost"), true);
    assert.equal(isLoopbackHost("0.0.0.0"), false);
  });

  test("a client on another machine gets 403 (X-Forwarded-For: 127.0.0.1 from a trusted proxy is not believed); this machine gets the tool", async () => {
    const host = await build({ trustProxy: 1 });
    const remote = await serveAs(host, "203.0.113.9");
    const local = await serveAs(host, undefined);
    try {
      const refused = await fetch(`${remote.url}/_tool`, { headers: { "x-forwarded-for": "127.0.0.1" } });
      assert.equal(refused.status, 403);
      const text = await refused.text();
      assert.doesNotMatch(text, /reset-password/);
      assert.match(text, /devTools: \{ remote: true \}/);
      assert.equal((await fetch(`${remote.url}/_tool/x`)).status, 403);
      const allowed = await fetch(`${local.url}/_tool`);
      assert.equal(allowed.status, 200);
      assert.match(await allowed.text(), /reset-password/);
    } finally {
      remote.server.close();
      local.server.close();
      await host.close();
    }
  });

  test("devTools: { remote: true } opens them to other clients; a wrong value stops the start", async () => {
    const host = await build({ devTools: { remote: true } });
    const remote = await serveAs(host, "203.0.113.9");
    try {
      assert.equal((await fetch(`${remote.url}/_tool`)).status, 200);
    } finally {
      remote.server.close();
      await host.close();
    }
    await assert.rejects(build({ devTools: { remote: "yes" } }), { code: "E_CONFIG_INVALID" });
    await assert.rejects(build({ devTools: { remtoe: true } }), { code: "E_CONFIG_UNKNOWN_KEY" });
  });

  test("listening on a non-loopback address warns, naming the tools; loopback does not", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const host = await build({}, pino({ level: "info" }, stream));
    try {
      // Bound for a moment, no request sent: only the warning is looked at.
      const wide = await host.listen(0, "0.0.0.0");
      await new Promise<void>((resolve) => wide.close(() => resolve()));
      const warned = lines.filter((line) => line.includes("development tools"));
      assert.equal(warned.length, 1, lines.join(""));
      assert.match(warned[0]!, /0\.0\.0\.0.*\/_tool \(a test tool\).*only to this machine/);
    } finally {
      await host.close();
    }
    assert.equal(devToolsBindWarning("127.0.0.1", ["/_mail"], {}), undefined);
    assert.equal(devToolsBindWarning("0.0.0.0", [], {}), undefined);
    assert.match(devToolsBindWarning("::", ["/_mail"], { devTools: { remote: true } })!, /every client/);
  });
});
