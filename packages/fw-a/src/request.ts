import { ALL_VERBS, bareOrCalled, restrictVerbs, routePath, type MethodDecorator, type Verb, type ViewDecorator } from "routing-kernel";

/** A verb decorator: usable bare (`@request.post`) or called (`@request.post()`). */
export type VerbDecorator = MethodDecorator & (() => MethodDecorator);

const verb = (name: string, verbs: readonly Verb[]): VerbDecorator =>
  bareOrCalled(() => restrictVerbs(`request.${name}`, verbs)) as VerbDecorator;

/**
 * Request decorators of framework A. Verb decorators restrict a method to their verbs and keep its
 * generated path (stacking adds verbs); `route(path)` replaces the generated path (on a method,
 * relative to the class prefix; several give several routes) or, on a class, the prefix.
 */
export const request = Object.freeze({
  get: verb("get", ["GET"]),
  post: verb("post", ["POST"]),
  put: verb("put", ["PUT"]),
  patch: verb("patch", ["PATCH"]),
  delete: verb("delete", ["DELETE"]),
  /** The same as `delete`: esbuild (and so tsx) cannot parse `@request.delete`; write `@request.del` or `@(request.delete)`. */
  del: verb("delete", ["DELETE"]),
  options: verb("options", ["OPTIONS"]),
  all: verb("all", ALL_VERBS),
  route: (path: string): ViewDecorator => routePath("request.route", path),
});
