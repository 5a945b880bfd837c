import { verbDecorators, type VerbDecorators } from "routing-kernel";

export type { VerbDecorator } from "routing-kernel";

/**
 * Verb decorators: `@request.post` restricts a method to POST and keeps its generated path and
 * parameters; stacking adds verbs (`@request.get @request.post`); `all` means every verb.
 */
export const request: VerbDecorators = verbDecorators("request");
