import { HostView } from "@fwkit/koa-host";
import { input, validate, type ValidateOptions } from "@fwkit/data";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { CurrentUser } from "@fwkit/security";
import type { Services } from "@fwkit/services";


/**
 * The base class of framework A's views: every exported subclass in `views/` becomes a group of
 * routes (class name -> prefix, method -> segment, parameters -> more segments). A new instance
 * serves each request, with the Koa context as `this.ctx`. Its members are reserved names.
 */
export class FwA extends HostView {
  /** The logged-in user (login manager), or undefined. */
  get currentUser(): CurrentUser | undefined {
    return this.ctx.state["currentUser"] as CurrentUser | undefined;
  }

  /** The verified JWT claims of a `@security.bearerAuth` view, or undefined. */
  get claims(): Readonly<Record<string, unknown>> | undefined {
    return this.ctx.state["jwt"] as Readonly<Record<string, unknown>> | undefined;
  }

  /** Mail, storage, cache, signals and assets of the app. */
  get services(): Services {
    return this.ctx.state["services"] as Services;
  }

  /**
   * Validates the body (default), query or files with a Standard Schema (zod, valibot...). A failure
   * answers 422 with per-field messages (JSON views) or redirects back with them (HTML forms).
   */
  validate<S extends StandardSchemaV1>(schema: S, options?: ValidateOptions): Promise<StandardSchemaV1.InferOutput<S>> {
    return validate(this.ctx, schema, options);
  }

  /**
   * The parsed value of a schema this method declared with `@request.body(Schema)` (or `@request.query`, `@request.files`), typed by
   * the schema. It was validated before the method ran (a refusal never reaches it), so no await.
   */
  input<S extends StandardSchemaV1>(schema: S): StandardSchemaV1.InferOutput<S> {
    return input(this.ctx, schema);
  }
}
