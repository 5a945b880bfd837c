import { routePath, verbDecorators, type VerbDecorators, type ViewDecorator } from "routing-kernel";

export type { VerbDecorator } from "routing-kernel";

/**
 * Request decorators of framework A. Verb decorators (`@request.post`, usable bare or called)
 * restrict a method to their verbs and keep its generated path (stacking adds verbs; `all` is
 * every verb); `route(path)` replaces the generated path (on a method, relative to the class
 * prefix; several give several routes) or, on a class, the prefix.
 */
export const request: VerbDecorators & { readonly route: (path: string) => ViewDecorator } = Object.freeze({
  ...verbDecorators("request"),
  route: (path: string): ViewDecorator => routePath("request.route", path),
});
