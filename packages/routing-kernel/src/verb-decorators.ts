import { bareOrCalled, restrictVerbs, type MethodDecorator } from "./decorators.js";
import { ALL_VERBS, type Verb } from "./verbs.js";

/** A verb decorator: usable bare (`@request.post`) or called (`@request.post()`). */
export type VerbDecorator = MethodDecorator & (() => MethodDecorator);

/** The verb decorators a framework exposes (`request.get`, `.post`, ...). */
export interface VerbDecorators {
  readonly get: VerbDecorator;
  readonly post: VerbDecorator;
  readonly put: VerbDecorator;
  readonly patch: VerbDecorator;
  readonly delete: VerbDecorator;
  /** The same as `delete`: esbuild (and so tsx) cannot parse `@request.delete`; write `@request.del` or `@(request.delete)`. */
  readonly del: VerbDecorator;
  readonly options: VerbDecorator;
  /** GET, POST, PUT, PATCH and DELETE. */
  readonly all: VerbDecorator;
}

/**
 * Builds the verb decorators both frameworks share; `namespace` names them in error messages
 * (`request` gives `@request.post`). Each restricts a method to its verbs and keeps its generated
 * path and parameters; stacking adds verbs.
 */
export function verbDecorators(namespace: string): VerbDecorators {
  const verb = (name: string, verbs: readonly Verb[]): VerbDecorator =>
    bareOrCalled(() => restrictVerbs(`${namespace}.${name}`, verbs), `${namespace}.${name}`) as VerbDecorator;
  return Object.freeze({
    get: verb("get", ["GET"]),
    post: verb("post", ["POST"]),
    put: verb("put", ["PUT"]),
    patch: verb("patch", ["PATCH"]),
    delete: verb("delete", ["DELETE"]),
    del: verb("delete", ["DELETE"]),
    options: verb("options", ["OPTIONS"]),
    all: verb("all", ALL_VERBS),
  });
}
