// A mount must not silently hide a route of the app it is mounted in, and the route
// listing shows mounted apps' routes under their prefix.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Writable } from "node:stream";
import { pino, type Logger } from "pino";
import type { ViewModule } from "routing-kernel";
import type { Host } from "../src/index.js";
import { createHost } from "../src/plugin-api.js";
import { formatRoutes, routeListing } from "../src/operations.js";
import { conventions, json, route, TestView, testResponder } from "./fixtures.js";

const root = new URL("./app", import.meta.url).pathname;
const open: Host[] = [];

async function build(classes: Record<string, unknown>, basePath?: string, logger?: Logger): Promise<Host> {
  const modules: ViewModule[] = [{ name: "main", exports: classes }];
  const host = await createHost({
    root,
    conventions,
    responder: () => testResponder,
    modules,
    // The balancer's request id is believed from a trusted proxy only: here, this machine.
    config: { env: "test", logRequests: logger !== undefined, trustProxy: "loopback" },
    ...(basePath ? { basePath } : {}),
    ...(logger ? { logger } : {}),
  });
  open.push(host);
  return host;
}

class Index extends TestView {
  index() {
    return "home";
  }
}
class Api extends TestView {
  index() {
    return "parent api";
  }
}
class Apis extends TestView {
  index() {
    return "apis";
  }
}
@route("/")
class Pages extends TestView {
  @route("/:page")
  show(page: string) {
    return page;
  }
}
@json
class Status extends TestView {
  index() {
    return { ok: true };
  }
  item(id: string) {
    return { id };
  }
}

describe("mounts", () => {
  after(async () => {
    for (const host of open) await host.close();
  });

  test("a mount that would hide a parent route is refused, naming both", async () => {
    const parent = await build({ Index, Api });
    const child = await build({ Status }, "/api");
    for (const attempt of [() => parent.checkMount("/api"), () => parent.mount("/api/", child)]) {
      assert.throws(attempt, (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_MOUNT_OVERLAP");
        assert.match(
          error.message,
          /The app mounted at \/api would hide the route GET \/api \(Api\.index\(\) in views\/main\)/,
        );
        return true;
      });
    }
    assert.equal(parent.mounts.length, 0, "nothing was mounted");
  });

  test("a parameter route of the parent is not an overlap, nor a sibling prefix", async () => {
    const parent = await build({ Index, Pages, Apis });
    const child = await build({ Status }, "/api");
    assert.deepEqual(
      parent.table.routes.map((r) => r.path),
      ["/", "/:page", "/apis"],
    );
    parent.mount("/api", child);
    assert.equal(parent.mounts.length, 1);
    assert.throws(() => parent.checkMount("/api/v2"), { code: "E_MOUNT_OVERLAP", message: /the app mounted at \/api/ });
    assert.throws(() => parent.checkMount("/static"), {
      code: "E_MOUNT_OVERLAP",
      message: /the static files under \/static/,
    });
  });

  test("a mount prefix that is not a plain path is refused", async () => {
    const parent = await build({ Index });
    for (const prefix of ["", "/", "api", "/:id", "/a/../b", "/a?b"]) {
      assert.throws(() => parent.checkMount(prefix), { code: "E_MOUNT_PREFIX_INVALID" }, JSON.stringify(prefix));
    }
  });

  test("the route listing includes mounted apps' routes with their prefix", async () => {
    const parent = await build({ Index });
    const child = await build({ Status }, "/api");
    parent.mount("/api", child);
    assert.deepEqual(
      routeListing(parent).map((r) => [r.verbs.join(","), r.path, r.handler, r.kind, r.mount]),
      [
        ["GET", "/", "Index.index", "text", undefined],
        ["GET", "/api/status", "Status.index", "json", "/api"],
        ["GET", "/api/status/item/:id", "Status.item", "json", "/api"],
      ],
    );
    assert.match(formatRoutes(parent), /^GET\s+\/api\/status\/item\/:id\s+main:Status\.item\s+json$/m);
    const res = await parent.listen(0, "127.0.0.1");
    const { port } = res.address() as import("node:net").AddressInfo;
    assert.deepEqual(
      await (await fetch(`http://127.0.0.1:${port}/api/status`)).json(),
      { ok: true },
      "the listed path answers",
    );
  });

  test("a request under a mount is answered, identified and logged by the mounted app alone", async () => {
    const lines: Array<{ app: string; line: Record<string, unknown> }> = [];
    const logTo = (app: string) =>
      pino(
        { level: "info" },
        new Writable({
          write(chunk, _encoding, done) {
            for (const text of String(chunk).split("\n").filter(Boolean))
              lines.push({ app, line: JSON.parse(text) as Record<string, unknown> });
            done();
          },
        }),
      );
    const parent = await build({ Index }, undefined, logTo("parent"));
    const child = await build({ Status }, "/api", logTo("child"));
    parent.mount("/api", child);
    const server = await parent.listen(0, "127.0.0.1");
    const { port } = server.address() as import("node:net").AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/api/status/nothing-here`, {
      headers: { "X-Request-Id": "trace-mount" },
    });
    assert.equal(answer.status, 404);
    assert.equal(answer.headers.get("x-request-id"), "trace-mount");
    const requestLines = lines.filter(({ line }) => line["reqId"] === "trace-mount");
    assert.deepEqual(
      requestLines.map(({ app, line }) => [app, line["status"]]),
      [["child", 404]],
      JSON.stringify(lines),
    );
  });

  test("once the app serves, mounting is refused; an app that mounts nothing has no mount layer", async () => {
    const alone = await build({ Index });
    const layers = alone.koa.middleware.length;
    const server = await alone.listen(0, "127.0.0.1");
    assert.equal(alone.koa.middleware.length, layers, "no layer is added for mounts the app does not have");
    assert.throws(() => alone.mount("/api", undefined as never), { code: "E_HOST_STARTED" });
    const { port } = server.address() as import("node:net").AddressInfo;
    assert.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), "home");

    const parent = await build({ Index });
    const child = await build({ Status }, "/api");
    parent.mount("/api", child);
    const mounted = await parent.listen(0, "127.0.0.1");
    assert.equal(parent.koa.middleware.length, layers + 1, "the mount layer, in front");
    const at = `http://127.0.0.1:${(mounted.address() as import("node:net").AddressInfo).port}`;
    assert.deepEqual(await (await fetch(`${at}/api/status/`)).json(), { ok: true });
    assert.equal(await (await fetch(`${at}/`)).text(), "home");
  });
});
