/**
 * The conformance adapter of a bare koa-host app (kernel decorators, text or JSON answers), so the
 * suite also checks the host both frameworks stand on.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { createHost, HOST_VIEW_FIELDS, HostView, type Responder } from "@fwkit/koa-host/plugin";
import { sendJson, sendText } from "@fwkit/koa-host/plugin";
import {
  bareOrCalled,
  buildRouteTable,
  defineConventions,
  responseKindTag,
  routePath,
  verbDecorators,
} from "routing-kernel";
import { responseKindOf } from "routing-kernel/plugin";
import type { ConformanceAdapter } from "../src/index.js";

const conventions = (trailingSlash: boolean) =>
  defineConventions({ baseClass: HostView, trailingSlash, reservedNames: HOST_VIEW_FIELDS });

const responder: Responder = {
  prepare: (route) => (ctx, result) =>
    responseKindOf(route) === "json" ? sendJson(ctx, result) : sendText(ctx, String(result)),
  renderError(ctx, info) {
    ctx.status = info.status;
    ctx.body = info.message;
  },
  describe: (route) => (responseKindOf(route) === "json" ? "json" : "text"),
};

/** koa-host with the kernel's decorators, under either slash policy. */
export function koaHostAdapter(trailingSlash: boolean): ConformanceAdapter {
  return {
    name: `koa-host (${trailingSlash ? "paths end with /" : "paths without trailing /"})`,
    trailingSlash,
    Base: HostView,
    decorators: {
      // The kernel's verb decorators, as fw-a's and fw-b's `request` namespaces are made.
      ...verbDecorators("request"),
      route: (path) => routePath("route", path),
      // Bare or called with nothing, as the seeds write it: options are refused.
      json: bareOrCalled(() => responseKindTag("json", "json"), "json"),
    },
    async build(modules) {
      return buildRouteTable({ conventions: conventions(trailingSlash), modules });
    },
    async start(modules) {
      const root = mkdtempSync(join(tmpdir(), "conformance-koa-host-"));
      const host = await createHost({
        root,
        conventions: conventions(trailingSlash),
        modules,
        responder: () => responder,
        config: { logRequests: false, logLevel: "silent" },
      });
      const server = await host.listen(0, "127.0.0.1");
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}`,
        async close() {
          await host.close();
          rmSync(root, { recursive: true, force: true });
        },
      };
    },
  };
}
