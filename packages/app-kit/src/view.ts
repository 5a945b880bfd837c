import type { StandardSchemaV1 } from "@standard-schema/spec";
import { input, validate, type ValidateOptions } from "@fwkit/data";
import type { AppConfig } from "@fwkit/koa-host";
import { HostView } from "@fwkit/koa-host/plugin";
import { runtimeOf } from "@fwkit/koa-host/plugin";
import { currentUser, type CurrentUser } from "@fwkit/security";
import { jwtClaims } from "@fwkit/security/plugin";
import type { Services } from "@fwkit/services";
import { servicesSlot } from "@fwkit/services/battery";

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
    return currentUser(this.ctx);
  }

  /** The verified JWT claims of a bearer-authenticated view, or undefined. */
  get claims(): Readonly<Record<string, unknown>> | undefined {
    return jwtClaims(this.ctx);
  }

  /** Mail, storage, cache, signals and assets of the app (the services battery). */
  get services(): Services {
    // Set by the services battery's middleware on every request that reaches a view.
    return servicesSlot.get(this.ctx)!;
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
