// koa-body's declarations type `ctx.request.body` and `ctx.request.files` (the host parses bodies
// with it). `preserve` keeps the reference in the built .d.ts, so an app's own program sees them too.
/// <reference types="koa-body" preserve="true" />
import type { Context } from "koa";
import type { UrlParams, ViewClass } from "routing-kernel";
import { redirect, type Redirect } from "./reply.js";
import { runtimeOf } from "./runtime.js";

/**
 * The base of both frameworks' view classes. The host creates one instance per request with the
 * Koa context. Its members are reserved names: a view method may not reuse them.
 */
export class HostView {
  /** The Koa context of the request this instance serves. */
  readonly ctx: Context;

  constructor(ctx: Context) {
    this.ctx = ctx;
  }

  /** Builds the URL of a route: `this.urlFor("Blog.show", { id: 1 })`. */
  urlFor(target: string | ViewClass, methodOrParams?: string | UrlParams, params?: UrlParams): string {
    const host = runtimeOf(this.ctx);
    return host.basePath + host.table.urlFor(target, methodOrParams, params);
  }

  /** Returns a redirect result: `return this.redirect("/login")`. */
  redirect(location: string, status = 302): Redirect {
    return redirect(location, status);
  }
}

/** Instance members of {@link HostView} that are set per request, reserved like its methods. */
export const HOST_VIEW_FIELDS: readonly string[] = Object.freeze(["ctx"]);
