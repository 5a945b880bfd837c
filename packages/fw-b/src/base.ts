import { FrameworkView } from "@fwkit/app-kit";
import { HOST_VIEW_FIELDS } from "@fwkit/koa-host/plugin";
import { defineConventions, type Conventions } from "routing-kernel";

/**
 * The base class of fw-b views: every exported subclass in `views/` is mounted. A new instance
 * serves each request, with `this.ctx` (the Koa context), `this.urlFor(...)`, `this.redirect(...)`
 * and the kit's helpers: `config`, `currentUser`, `claims` (a `@bearerAuth` view's JWT claims),
 * `services`, `validate` and `input` (a schema declared with `@body(Schema)`). Its members are
 * reserved: a view method may not reuse their names.
 */
export class FwB extends FrameworkView {}

/**
 * fw-b's routing conventions: generated paths never end with `/` except the
 * root; special method names, verbs by name and hooks are the shared defaults.
 */
export const conventions: Conventions = defineConventions({
  baseClass: FwB,
  trailingSlash: false,
  reservedNames: HOST_VIEW_FIELDS,
});
