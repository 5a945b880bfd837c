// HTTP upgrades claimed by a plugin: the handshake runs through the app's middleware like a GET
// (what an earlier layer put on the request is there), a refusal is an ordinary HTTP answer on the
// socket, which then closes; a path no plugin claims is 404; without a claim, no upgrade listener.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, test } from "node:test";
import type { Context, Next } from "koa";
import { defineConventions } from "routing-kernel";
import { createHost, HostView, upgradeOf, type HostPlugin } from "../src/plugin-api.js";
import type { Host } from "../src/index.js";

class View extends HostView {}
const conventions = defineConventions({ baseClass: View, trailingSlash: false });
const responder = () => ({
  prepare: () => () => {},
  renderError: (ctx: Context, info: { message: string }) => {
    ctx.body = info.message;
  },
  describe: () => "text",
});

const claiming: HostPlugin = {
  name: "socket",
  upgradePaths: () => ["/live"],
  phases: {
    request: () => [
      async (ctx: Context, next: Next) => {
        ctx.state["who"] = ctx.get("x-who");
        await next();
      },
      async (ctx: Context, next: Next) => {
        if (ctx.path !== "/live") return next();
        if (ctx.state["who"] !== "me") ctx.throw(403, "not you");
        const upgrade = upgradeOf(ctx);
        assert.ok(upgrade);
        ctx.respond = false;
        upgrade.socket.end("HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\nhello");
      },
    ],
  },
};

/** Sends a raw upgrade request and reads everything until the server closes the socket. */
function upgrade(port: number, path: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    socket.on("data", (chunk) => {
      got += chunk;
    });
    socket.on("end", () => resolve(got));
    socket.on("error", reject);
    const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: test\r\n${extra.join("")}\r\n`,
    );
  });
}

let host: Host;
let port = 0;
before(async () => {
  host = await createHost({
    root: process.cwd(),
    conventions,
    responder,
    modules: [],
    plugins: [claiming],
    config: { env: "test", logRequests: false },
  });
  const server = await host.listen(0, "127.0.0.1");
  port = (server.address() as { port: number }).port;
});
after(() => host.close());

test("a claimed upgrade runs through the app's middleware and is taken over", async () => {
  const answer = await upgrade(port, "/live", { "x-who": "me" });
  assert.match(answer, /^HTTP\/1\.1 101 /);
  assert.match(answer, /hello$/);
});

test("a refused upgrade is an HTTP answer on the socket, which then closes", async () => {
  const answer = await upgrade(port, "/live?x=1", { "x-who": "someone" });
  assert.match(answer, /^HTTP\/1\.1 403 /);
  assert.match(answer, /not you/);
});

test("an upgrade on a path no plugin claims is 404", async () => {
  assert.match(await upgrade(port, "/elsewhere"), /^HTTP\/1\.1 404 /);
});

test("without a claimed path the server has no upgrade listener", async () => {
  const plain = await createHost({
    root: process.cwd(),
    conventions,
    responder,
    modules: [],
    config: { env: "test", logRequests: false },
  });
  try {
    assert.equal(plain.upgradeListener(), undefined);
    const server = await plain.listen(0, "127.0.0.1");
    assert.equal(server.listenerCount("upgrade"), 0);
  } finally {
    await plain.close();
  }
});
