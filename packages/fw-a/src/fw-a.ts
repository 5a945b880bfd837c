import { FrameworkView } from "@fwkit/app-kit";

/**
 * The base class of framework A's views: every exported subclass in `views/` becomes a group of
 * routes (class name -> prefix, method -> segment, parameters -> more segments). A new instance
 * serves each request, with the Koa context as `this.ctx`, and the kit's helpers: `config`,
 * `currentUser`, `claims` (a `@security.bearerAuth` view's JWT claims), `services`, `validate` and
 * `input` (a schema declared with `@request.body(Schema)`). Its members are reserved names.
 */
export class FwA extends FrameworkView {}
