import { routePath, verbDecorators, type VerbDecorators, type ViewDecorator } from "routing-kernel";
import { requestSchemas } from "./schemas.js";

export type { VerbDecorator } from "routing-kernel";

/**
 * Request decorators of framework A. Verb decorators (`@request.post`, usable bare or called)
 * restrict a method to their verbs and keep its generated path (stacking adds verbs; `all` is
 * every verb); `route(path)` replaces the generated path (on a method, relative to the class
 * prefix; several give several routes) or, on a class, the prefix. `query`, `body` and `files`
 * declare schemas validated before the method (read with `this.input(Schema)`); `summary`,
 * `description` and `tags` document the route (OpenAPI).
 */
export const request: VerbDecorators & { readonly route: (path: string) => ViewDecorator } & typeof requestSchemas =
  Object.freeze({
    ...verbDecorators("request"),
    route: (path: string): ViewDecorator => routePath("request.route", path),
    ...requestSchemas,
  });
