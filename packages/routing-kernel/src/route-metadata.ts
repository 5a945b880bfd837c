import { declaredResponseKind, type ResponseKind } from "./response-kind.js";
import type { Route, RouteParameter } from "./route.js";
import { routeDocOf, routeSchemas, type RouteSchemas } from "./route-schemas.js";
import type { Verb } from "./verbs.js";

/**
 * Everything the kernel knows about one route, in one plain object for tools (OpenAPI, typed
 * route declarations, listings): read it with `table.metadata()` or {@link routeMetadata}.
 */
export interface RouteMetadata {
  /** `Class.method`, the name reverse routing uses. */
  readonly id: string;
  readonly className: string;
  readonly methodName: string;
  /** The view module (path under `views/` without extension). */
  readonly module: string;
  /** Verbs answered (GET also answers HEAD). */
  readonly verbs: readonly Verb[];
  /** The display pattern, optional segments marked `:name?`. */
  readonly path: string;
  /** Concrete patterns matched, shortest first (one per optional-segment variant or route decorator). */
  readonly patterns: readonly string[];
  /** The method's parameters; `optional` ones may be left out of the URL. */
  readonly parameters: readonly RouteParameter[];
  /** The declared response kind (`json`, `xml`, `html`); `html` when none was declared. */
  readonly responseKind: ResponseKind;
  /** True when a decorator declared the kind (a route without one answers whatever its method returns). */
  readonly kindDeclared: boolean;
  /** Declared input and response schemas. */
  readonly schemas: RouteSchemas;
  readonly summary?: string;
  readonly description?: string;
  /** Group names: the class's name unless a decorator gave others. */
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  /** All route tags as the decorators set them (batteries' switches: login required, CSRF...). */
  readonly routeTags: Readonly<Record<string, unknown>>;
}

/** The metadata of one route (see {@link RouteMetadata}). */
export function routeMetadata(route: Route): RouteMetadata {
  const doc = routeDocOf(route);
  const declared = declaredResponseKind(route);
  const metadata: { -readonly [K in keyof RouteMetadata]: RouteMetadata[K] } = {
    id: route.id,
    className: route.className,
    methodName: route.methodName,
    module: route.module,
    verbs: route.verbs,
    path: route.path,
    patterns: route.patterns,
    parameters: route.parameters,
    responseKind: declared ?? "html",
    kindDeclared: declared !== undefined,
    schemas: routeSchemas(route),
    tags: doc.tags ?? [route.className],
    deprecated: doc.deprecated === true,
    routeTags: route.tags,
  };
  if (doc.summary !== undefined) metadata.summary = doc.summary;
  if (doc.description !== undefined) metadata.description = doc.description;
  return Object.freeze(metadata);
}
