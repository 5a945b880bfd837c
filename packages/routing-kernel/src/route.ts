import type { ViewClass } from "./conventions.js";
import type { Verb } from "./verbs.js";

/** Where a method parameter takes its value from. */
export type ParameterSource = "path" | "prefix" | "none";

/** A method parameter as the route binds it. */
export interface RouteParameter {
  /** The parameter name, equal to its `:name` in the pattern. */
  readonly name: string;
  /** True when the segment may be left out (the method's default value applies). */
  readonly optional: boolean;
  /** `path`: a segment of this route; `prefix`: bound from the class prefix; `none`: not in the path. */
  readonly source: ParameterSource;
}

/** One view method as routed. */
export interface Route {
  /** `Class.method`: the name used by reverse routing and the route listing. */
  readonly id: string;
  /** The view module (path under `views/` without extension). */
  readonly module: string;
  /** The view class; a new instance serves every request. */
  readonly viewClass: ViewClass;
  /** The class name as written. */
  readonly className: string;
  /** The method name as written. */
  readonly methodName: string;
  /** Verbs answered (GET implies HEAD, answered by the host). */
  readonly verbs: readonly Verb[];
  /** The pattern for display, optional parameters marked with `?`. */
  readonly path: string;
  /** Concrete patterns to match, shortest first (one per optional-parameter variant or route decorator). */
  readonly patterns: readonly string[];
  /** The method's parameters in declaration order, i.e. the order of the call's arguments. */
  readonly parameters: readonly RouteParameter[];
  /** Class tags overlaid by method tags (response kind, CSRF exemption, menu title...). */
  readonly tags: Readonly<Record<string, unknown>>;
  /** False when a route decorator gave the path. */
  readonly generated: boolean;
}

/** One pattern of one route, in matching order (static segments before parameters). */
export interface RouteEntry {
  readonly pattern: string;
  readonly route: Route;
}
