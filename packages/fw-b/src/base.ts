import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Context } from "koa";
import { input, validate, type ValidateOptions } from "@fwkit/data";
import { HOST_VIEW_FIELDS, HostView, type AppConfig } from "@fwkit/koa-host";
import { runtimeOf } from "@fwkit/koa-host/plugin";
import { defineConventions, type Conventions } from "routing-kernel";
import type { CurrentUser } from "@fwkit/security";
import type { Services } from "@fwkit/services";

/**
 * The base class of fw-b views: every exported subclass in `views/` is mounted. A new instance
 * serves each request, with `this.ctx` (the Koa context), `this.urlFor(...)` and
 * `this.redirect(...)`. Its members are reserved: a view method may not reuse their names.
 */
export class FwB extends HostView {
  /** The app's resolved configuration (`lib/config.ts`, environment, overrides). */
  get config(): AppConfig {
    return runtimeOf(this.ctx).config;
  }

  /** The logged-in user (the login manager's `loadUser`), or undefined. */
  get currentUser(): CurrentUser | undefined {
    return (this.ctx.state["currentUser"] as CurrentUser | undefined) ?? undefined;
  }

  /** The verified JWT claims of a `@bearerAuth` view, or undefined. */
  get claims(): Readonly<Record<string, unknown>> | undefined {
    return this.ctx.state["jwt"] as Readonly<Record<string, unknown>> | undefined;
  }

  /** Mail, storage, cache, signals and assets of the app (the services battery). */
  get services(): Services {
    return this.ctx.state["services"] as Services;
  }

  /**
   * Validates the body (default), query or files with a Standard Schema (zod, valibot...). A
   * failure answers 422 with per-field messages (`@renderJson` / `@renderXml` views, JSON clients)
   * or redirects back with the messages and the old input (HTML forms).
   */
  validate<S extends StandardSchemaV1>(schema: S, options?: ValidateOptions): Promise<StandardSchemaV1.InferOutput<S>> {
    return validate(this.ctx, schema, options);
  }

  /**
   * The parsed value of a schema this method declared with `@body(Schema)` (or `@query`, `@files`), typed by
   * the schema. It was validated before the method ran (a refusal never reaches it), so no await.
   */
  input<S extends StandardSchemaV1>(schema: S): StandardSchemaV1.InferOutput<S> {
    return input(this.ctx, schema);
  }
}

/**
 * fw-b's routing conventions: generated paths never end with `/` except the
 * root; special method names, verbs by name and hooks are the shared defaults.
 */
export const conventions: Conventions = defineConventions({
  baseClass: FwB,
  trailingSlash: false,
  reservedNames: HOST_VIEW_FIELDS,
});
