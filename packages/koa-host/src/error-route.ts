import type { Route, RouteTable } from "routing-kernel";
import { isDataRoute } from "routing-kernel/plugin";

/** One pattern split into segments (`null`: a parameter, matching any one segment). */
interface SplitEntry {
  readonly route: Route;
  readonly segments: ReadonlyArray<string | null>;
  readonly params: number;
}

/**
 * The route whose response kind an error answers with when the error was raised before the view
 * was matched (a malformed or oversized body, a CSRF refusal or a session store outage in app-wide
 * middleware, 405, 404): the route the path belongs to, whatever the verb; else, for a path that
 * matches nothing, the routes under its nearest ancestor path other than `/` (the `/api` of
 * `/api/nothing`) when they all answer errors alike (JSON and XML views as JSON, the rest as
 * pages). So a JSON view's bad input, and a 404 under a JSON class's prefix, are answered as JSON
 * in both frameworks. Only errors use it: the segment lists are made on the first error, not at
 * start-up.
 */
export function errorRouteFinder(table: RouteTable, basePath = ""): (path: string) => Route | undefined {
  let entries: SplitEntry[] | undefined;
  const split = (): SplitEntry[] =>
    table.entries
      .map(({ route, pattern }) => {
        const segments = segmentsOf(pattern).map((s) => (s.startsWith(":") ? null : s));
        return { route, segments, params: segments.filter((s) => s === null).length };
      })
      // Static segments win over parameters, as in the dispatcher.
      .sort((a, b) => a.params - b.params);
  return (rawPath) => {
    let path = rawPath;
    if (basePath) {
      if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
      path = path.slice(basePath.length) || "/";
    }
    entries ??= split();
    let wanted: string[];
    try {
      wanted = segmentsOf(path).map((s) => decodeURIComponent(s));
    } catch {
      wanted = segmentsOf(path);
    }
    const exact = entries.find(
      (e) => e.segments.length === wanted.length && startsWith(e.segments, wanted, wanted.length),
    );
    if (exact) return exact.route;
    for (let depth = wanted.length - 1; depth >= 1; depth--) {
      const under = entries.filter((e) => e.segments.length >= depth && startsWith(e.segments, wanted, depth));
      if (under.length === 0) continue;
      const kind = kindOf(under[0]!.route);
      return under.every((e) => kindOf(e.route) === kind) ? under[0]!.route : undefined;
    }
    return undefined;
  };
}

function segmentsOf(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

function startsWith(pattern: ReadonlyArray<string | null>, path: readonly string[], count: number): boolean {
  for (let i = 0; i < count; i++) {
    const segment = pattern[i];
    if (segment !== null && segment !== path[i]) return false;
  }
  return true;
}

/** What an error page depends on: JSON and XML views both answer errors as JSON. */
function kindOf(route: Route): "data" | "page" {
  return isDataRoute(route) ? "data" : "page";
}
