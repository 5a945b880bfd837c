import type { StandardSchemaV1 } from "@standard-schema/spec";
import { input, validate, type ValidateOptions } from "@fwkit/data";
import type { AppConfig } from "@fwkit/koa-host";
import { HostView } from "@fwkit/koa-host/plugin";
import { runtimeOf } from "@fwkit/koa-host/plugin";
import type { CurrentUser } from "@fwkit/security";
import type { Services } from "@fwkit/services";

/**
 * What every framework's view base class has (fw-a's `FwA`, fw-b's `FwB` extend it): the request's
 * context as `this.ctx`, `urlFor` and `redirect` (the host's view), and the batteries' helpers
 * below. A new instance serves each request. Its members are reserved: a view method may not
 * reuse their names.
 */
export class FrameworkView extends HostView {
  /** The app's resolved configuration (`lib/config.ts`, environment, overrides). */
  get config(): AppConfig {
    return runtimeOf(this.ctx).config;
  }

  /** The logged-in user (the login manager's `loadUser`), or undefined. */
  get currentUser(): CurrentUser | undefined {
    return (this.ctx.state["currentUser"] as CurrentUser | undefined) ?? undefined;
  }

  /** The verified JWT claims of a bearer-authenticated view, or undefined. */
  get claims(): Readonly<Record<string, unknown>> | undefined {
    return this.ctx.state["jwt"] as Readonly<Record<string, unknown>> | undefined;
  }

  /** Mail, storage, cache, signals and assets of the app (the services battery). */
  get services(): Services {
    return this.ctx.state["services"] as Services;
  }

  /**
   * Validates the body (default), query or files with a Standard Schema (zod, valibot...). A
   * failure answers 422 with per-field messages (JSON and XML views, JSON clients) or redirects
   * back with the messages and the old input (HTML forms).
   */
  validate<S extends StandardSchemaV1>(schema: S, options?: ValidateOptions): Promise<StandardSchemaV1.InferOutput<S>> {
    return validate(this.ctx, schema, options);
  }

  /**
   * The parsed value of a schema this method declared for its body, query or files, typed by the
   * schema. It was validated before the method ran (a refusal never reaches it), so no await.
   */
  input<S extends StandardSchemaV1>(schema: S): StandardSchemaV1.InferOutput<S> {
    return input(this.ctx, schema);
  }
}
