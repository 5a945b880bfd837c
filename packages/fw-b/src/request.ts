import { ALL_VERBS, bareOrCalled, restrictVerbs, type MethodDecorator, type Verb } from "routing-kernel";

/** A verb decorator: usable bare (`@request.post`) or called (`@request.post()`). */
export type VerbDecorator = MethodDecorator & (() => MethodDecorator);

function verb(name: string, verbs: readonly Verb[]): VerbDecorator {
  return bareOrCalled(() => restrictVerbs(`request.${name}`, verbs));
}

/**
 * Verb decorators: `@request.post` restricts a method to POST and keeps its generated path and
 * parameters; stacking adds verbs (`@request.get @request.post`); `all` means every verb.
 */
export const request: {
  readonly get: VerbDecorator;
  readonly post: VerbDecorator;
  readonly put: VerbDecorator;
  readonly patch: VerbDecorator;
  readonly delete: VerbDecorator;
  /** The same as `delete`: esbuild (and so tsx) cannot parse `@request.delete`; write `@request.del` or `@(request.delete)`. */
  readonly del: VerbDecorator;
  readonly options: VerbDecorator;
  readonly all: VerbDecorator;
} = Object.freeze({
  get: verb("get", ["GET"]),
  post: verb("post", ["POST"]),
  put: verb("put", ["PUT"]),
  patch: verb("patch", ["PATCH"]),
  delete: verb("delete", ["DELETE"]),
  del: verb("delete", ["DELETE"]),
  options: verb("options", ["OPTIONS"]),
  all: verb("all", ALL_VERBS),
});
