import {
  defineConventions,
  RESPONSE_KIND_TAG,
  responseKindTag,
  restrictVerbs,
  routePath,
  type ViewModule,
} from "routing-kernel";
import type { Host } from "../src/index.js";
import { createHost, HostView, type HostOptions, type Responder } from "../src/plugin-api.js";
import {
  isPlainObject,
  sendHtmlError,
  sendJson,
  sendJsonError,
  sendText,
  unwrapReply,
  wantsJsonError,
} from "../src/plugin-api.js";

/** A view base for host tests. */
export class TestView extends HostView {}

/** fw-b-like conventions (no trailing slash) on TestView. */
export const conventions = defineConventions({ baseClass: TestView, trailingSlash: false });

/** Decorators for host tests. */
export const post = restrictVerbs("post", ["POST"]);
export const route = (path: string) => routePath("route", path);
export const json = responseKindTag("json", "json");

/** A small responder: strings as text, objects and arrays as JSON, undefined as 204. */
export const testResponder: Responder = {
  prepare() {
    return (ctx, result) => {
      const body = unwrapReply(ctx, result);
      if (typeof body === "string") sendText(ctx, body);
      else if (body === undefined) {
        if (ctx.body === undefined && !(ctx.status >= 300 && ctx.status < 400)) ctx.status = 204;
      } else if (Array.isArray(body) || isPlainObject(body)) sendJson(ctx, body);
      else sendText(ctx, String(body));
    };
  },
  renderError(ctx, info) {
    if (wantsJsonError(ctx, info.route)) sendJsonError(ctx, info);
    else sendHtmlError(ctx, info);
  },
  describe: (r) => String(r.tags[RESPONSE_KIND_TAG] ?? "text"),
};

/** Builds a host over the given classes, listening on 127.0.0.1. */
export async function startHost(
  classes: Record<string, unknown>,
  options: Partial<HostOptions> = {},
): Promise<{ host: Host; url: string }> {
  const modules: ViewModule[] = [{ name: "main", exports: classes }];
  const host = await createHost({
    root: new URL("./app", import.meta.url).pathname,
    conventions,
    responder: () => testResponder,
    modules,
    config: { env: "test", logRequests: false, ...options.config },
    ...options,
  });
  const server = await host.listen(0, "127.0.0.1");
  const address = server.address() as import("node:net").AddressInfo;
  return { host, url: `http://127.0.0.1:${address.port}` };
}
