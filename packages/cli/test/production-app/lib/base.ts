import { defineConventions } from "routing-kernel";
import { HostView, type Responder } from "@fwkit/koa-host/plugin";
import {
  isPlainObject,
  sendHtmlError,
  sendJson,
  sendJsonError,
  sendText,
  unwrapReply,
  wantsJsonError,
} from "@fwkit/koa-host/plugin";

/** The fixture's view base. */
export class FixtureView extends HostView {}

/** fw-b-like conventions on FixtureView. */
export const conventions = defineConventions({ baseClass: FixtureView, trailingSlash: false });

/** Strings as text, objects as JSON. */
export const responder: Responder = {
  prepare() {
    return (ctx, result) => {
      const body = unwrapReply(ctx, result);
      if (typeof body === "string") sendText(ctx, body);
      else if (Array.isArray(body) || isPlainObject(body)) sendJson(ctx, body);
      else sendText(ctx, String(body ?? ""));
    };
  },
  renderError(ctx, info) {
    if (wantsJsonError(ctx, info.route)) sendJsonError(ctx, info);
    else sendHtmlError(ctx, info);
  },
  describe: () => "text",
};
