import { setTag, type ViewDecorator } from "./decorators.js";

/**
 * The route tag that holds a route's declared response kind. Every package reads and writes it
 * through this constant and {@link responseKindOf}, never as a string literal.
 */
export const RESPONSE_KIND_TAG = "responseKind";

/** The response kinds a view can declare: `html` (pages, the default), `json` and `xml` (data). */
export type ResponseKind = "html" | "json" | "xml";

const KINDS: ReadonlySet<string> = new Set<ResponseKind>(["html", "json", "xml"]);

/** Anything with route tags (a `Route`, or `ctx.state.route` when the host set it). */
export interface TaggedRoute {
  readonly tags?: Readonly<Record<string, unknown>>;
}

/** The kind a route declared with a response-kind decorator, or `undefined` when it declared none. */
export function declaredResponseKind(route: TaggedRoute | undefined): ResponseKind | undefined {
  const kind = route?.tags?.[RESPONSE_KIND_TAG];
  return typeof kind === "string" && KINDS.has(kind) ? (kind as ResponseKind) : undefined;
}

/** The response kind of a route: what it declared, else `html`. */
export function responseKindOf(route: TaggedRoute | undefined): ResponseKind {
  return declaredResponseKind(route) ?? "html";
}

/** True for data routes (JSON or XML): their errors and refusals are data, never pages or redirects. */
export function isDataRoute(route: TaggedRoute | undefined): boolean {
  const kind = declaredResponseKind(route);
  return kind === "json" || kind === "xml";
}

/**
 * A decorator that declares a route's (or a class's) response kind, for a framework's own
 * decorators: `responseKindTag("renderJson", "json")`.
 */
export function responseKindTag(decoratorName: string, kind: ResponseKind): ViewDecorator {
  return setTag(decoratorName, RESPONSE_KIND_TAG, kind);
}
