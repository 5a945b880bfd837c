import type { Context } from "koa";
import { HOST_VIEW_FIELDS, HostView, type AppConfig, type HostRuntime } from "koa-host";
import { defineConventions, type Conventions } from "routing-kernel";

/**
 * The base class of fw-b views: every exported subclass in `views/` is mounted. A new instance
 * serves each request, with `this.ctx` (the Koa context), `this.urlFor(...)` and
 * `this.redirect(...)`. Its members are reserved: a view method may not reuse their names.
 */
export class FwB extends HostView {
  /** The app's resolved configuration (`lib/config.ts`, environment, overrides). */
  get config(): AppConfig {
    return (this.ctx as Context & { host: HostRuntime }).host.config;
  }
}

/**
 * fw-b's routing conventions (SPEC section 2): generated paths never end with `/` except the
 * root; special method names, verbs by name and hooks are the shared defaults.
 */
export const conventions: Conventions = defineConventions({
  baseClass: FwB,
  trailingSlash: false,
  reservedNames: HOST_VIEW_FIELDS,
});
