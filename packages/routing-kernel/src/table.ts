import type { ViewClass } from "./conventions.js";
import { E_AMBIGUOUS_ROUTE, E_UNKNOWN_ROUTE } from "./errors.js";
import { patternOrderKey } from "./paths.js";
import type { Route, RouteEntry } from "./route.js";
import { routeMetadata, type RouteMetadata } from "./route-metadata.js";
import { buildUrl, type UrlParams } from "./url-for.js";
import { RESPONSE_KIND_TAG } from "./response-kind.js";

/** A route as the CLI lists it (`routes --json`). */
export interface RouteListing {
  readonly verbs: readonly string[];
  readonly path: string;
  readonly handler: string;
  readonly module: string;
  readonly kind: string;
  /** The prefix of the mounted app that serves the route (absent for the app's own routes). */
  readonly mount?: string;
}

/** Describes a route's response kind for listings (`html`, `json`, `xml`...). */
export type DescribeKind = (route: Route) => string;

/** The frozen result of building: routes in declaration order and entries in matching order. */
export class RouteTable {
  /** Routes in declaration order. */
  readonly routes: readonly Route[];
  /** One entry per pattern, static segments before parameters (stable otherwise). */
  readonly entries: readonly RouteEntry[];
  readonly #byName = new Map<string, Route[]>();
  readonly #byClass = new Map<ViewClass, Map<string, Route>>();

  constructor(routes: readonly Route[]) {
    this.routes = Object.freeze([...routes]);
    this.entries = Object.freeze(orderEntries(routes));
    for (const route of routes) {
      const named = this.#byName.get(route.id);
      if (named) named.push(route);
      else this.#byName.set(route.id, [route]);
      let methods = this.#byClass.get(route.viewClass);
      if (!methods) {
        methods = new Map<string, Route>();
        this.#byClass.set(route.viewClass, methods);
      }
      methods.set(route.methodName, route);
    }
    Object.freeze(this);
  }

  /**
   * Finds a route by `"Class.method"` (`"Class"` alone means `index`), or by class and method name.
   * Throws `E_UNKNOWN_ROUTE` or `E_AMBIGUOUS_ROUTE`.
   */
  find(target: string | ViewClass, methodName?: string): Route {
    if (typeof target === "function") {
      const name = methodName ?? "index";
      const route = this.#byClass.get(target)?.get(name);
      if (!route) throw new E_UNKNOWN_ROUTE(`${target.name}.${name}`);
      return route;
    }
    const id = target.includes(".") ? target : `${target}.${methodName ?? "index"}`;
    const found = this.#byName.get(id);
    if (!found) throw new E_UNKNOWN_ROUTE(`"${id}"`);
    if (found.length > 1) throw new E_AMBIGUOUS_ROUTE(id, found.map((r) => `views/${r.module}`).join(", "));
    return found[0]!;
  }

  /**
   * Builds the URL of a route: `urlFor("Blog.comments", { id: 42 })`, `urlFor("Blog.comments", [42])`
   * or `urlFor(Blog, "comments", { id: 42 })`. Values are URL-encoded; named values that are not
   * parameters of the route become the query string.
   */
  urlFor(target: string | ViewClass, methodOrParams?: string | UrlParams, params?: UrlParams): string {
    if (typeof methodOrParams === "string") return buildUrl(this.find(target, methodOrParams), params);
    return buildUrl(this.find(target), methodOrParams);
  }

  /** Everything known about each route, in declaration order: for OpenAPI and other tools. */
  metadata(): RouteMetadata[] {
    return this.routes.map(routeMetadata);
  }

  /** The listing the CLI prints with `--json`. */
  toJSON(describe: DescribeKind = defaultKind): RouteListing[] {
    return this.routes.map((route) => ({
      verbs: [...route.verbs],
      path: route.path,
      handler: `${route.id}`,
      module: route.module,
      kind: describe(route),
    }));
  }

  /** A human-readable, aligned listing: verbs, path, handler, response kind. */
  format(describe: DescribeKind = defaultKind): string {
    return formatRouteListing(this.toJSON(describe));
  }
}

/**
 * The aligned text of a route listing: verbs, path, handler, response kind. Used for one table
 * and for an app with mounted apps, whose routes are listed with their prefix.
 */
export function formatRouteListing(listing: readonly RouteListing[]): string {
  const rows = [["VERBS", "PATH", "HANDLER", "KIND"]];
  for (const item of listing) rows.push([item.verbs.join(","), item.path, `${item.module}:${item.handler}`, item.kind]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * One frozen entry per pattern in matching order: by {@link patternOrderKey}, declaration order
 * kept among equal keys. Patterns share few distinct keys, so entries are grouped by key (in
 * declaration order) and only the keys are sorted: the same order as a stable sort by key.
 */
function orderEntries(routes: readonly Route[]): RouteEntry[] {
  const groups = new Map<string, RouteEntry[]>();
  for (const route of routes) {
    for (const pattern of route.patterns) {
      const key = patternOrderKey(pattern);
      const entry = Object.freeze({ pattern, route });
      const group = groups.get(key);
      if (group) group.push(entry);
      else groups.set(key, [entry]);
    }
  }
  if (groups.size === 1) return [...groups.values()][0]!;
  const keys = [...groups.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const entries: RouteEntry[] = [];
  for (const key of keys) for (const entry of groups.get(key)!) entries.push(entry);
  return entries;
}

function defaultKind(route: Route): string {
  const kind = route.tags[RESPONSE_KIND_TAG];
  return typeof kind === "string" ? kind : "default";
}
