import type { Verb } from "./verbs.js";

/** Any class a framework uses as the base of its views. */
export type ViewClass = abstract new (...args: never[]) => object;

/** How a framework turns classes into routes. Each framework passes its own. */
export interface Conventions {
  /** The framework's base class: only its subclasses are views, and its members are reserved. */
  readonly baseClass: ViewClass;
  /** Whether generated paths end with `/` (fw-a) or not (fw-b). The root is always `/`. */
  readonly trailingSlash: boolean;
  /** The class name whose prefix is the root. */
  readonly rootClassName: string;
  /** Verbs fixed by a method's name (`post` -> POST, `update` -> PATCH...). */
  readonly verbsByName: Readonly<Record<string, readonly Verb[]>>;
  /** Method names that add no path segment (`index`, `get`, `post`...). */
  readonly silentNames: readonly string[];
  /** Verbs of a method whose name fixes none. */
  readonly defaultVerbs: readonly Verb[];
  /** Hook names, never routed (`beforeRequest`, `afterRequest`). */
  readonly hookNames: readonly string[];
  /** Instance members the base class sets (such as `ctx`), which a method may not reuse. */
  readonly reservedNames?: readonly string[];
}

/** The verbs by special name that both frameworks share (docs/routing.md, Verbs). */
export const SPECIAL_VERBS: Readonly<Record<string, readonly Verb[]>> = Object.freeze({
  index: ["GET"],
  get: ["GET"],
  post: ["POST"],
  put: ["PUT"],
  patch: ["PATCH"],
  delete: ["DELETE"],
  // Node's parser rejects the verb UPDATE, so `update` answers PATCH (and a POST overridden to UPDATE).
  update: ["PATCH"],
});

/** Builds a conventions object with the routing defaults both frameworks share. */
export function defineConventions(
  options: Pick<Conventions, "baseClass" | "trailingSlash"> & Partial<Conventions>,
): Conventions {
  return Object.freeze({
    rootClassName: "Index",
    verbsByName: SPECIAL_VERBS,
    silentNames: Object.keys(SPECIAL_VERBS),
    defaultVerbs: ["GET"] as const,
    hookNames: ["beforeRequest", "afterRequest"],
    reservedNames: [],
    ...options,
  });
}
