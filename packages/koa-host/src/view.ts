// koa-body's declarations type `ctx.request.body` and `ctx.request.files` (the host parses bodies
// with it). `preserve` keeps the reference in the built .d.ts, so an app's own program sees them too.
/// <reference types="koa-body" preserve="true" />
import type { Context } from "koa";
import type { Logger } from "pino";
import type { UrlParams, ViewClass } from "routing-kernel";
import { redirect, type Redirect } from "./reply.js";
import type { RouteClassName, RouteMethodArgs, RouteName, RouteNameArgs } from "./route-types/route-params.js";
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

  /**
   * Builds the URL of a route: `this.urlFor("Blog.show", { id: 1 })`. With the app's generated
   * `types/routes.d.ts` (`routes --types`) the name and its required parameters are checked by
   * the compiler; without it any name is accepted and checked when called.
   */
  urlFor<N extends RouteName>(name: N, ...params: RouteNameArgs<N>): string;
  /** `this.urlFor("Blog", "show", { id: 1 })`: a generated route by class and method name. */
  urlFor<C extends RouteClassName, M extends string>(
    className: C,
    methodName: M,
    ...params: RouteMethodArgs<C, M>
  ): string;
  /** `this.urlFor(Blog, "show", { id: 1 })`: a route by view class (and method, `index` by default). */
  urlFor(view: ViewClass, methodOrParams?: string | UrlParams, params?: UrlParams): string;
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

// Declared here, with the view base class every app's types load (set up by logger.ts's
// installContextLogger on each app's context prototype).
declare module "koa" {
  interface DefaultContext {
    /** The app logger's child for this request: every line it writes carries the request's `reqId`. */
    log: Logger;
  }
}
