import type { Route, RouteTable } from "routing-kernel";

/**
 * Finds the route a path belongs to, for errors raised before dispatch (a malformed or oversized
 * body is rejected before the route is matched), so a JSON view's bad input is answered in JSON.
 * Used only on that error path, so the matchers are built on its first use, not at start-up.
 */
export function routeAtPath(table: RouteTable, basePath = ""): (path: string) => Route | undefined {
  let matchers: Array<{ route: Route; regex: RegExp }> | undefined;
  return (path) => {
    matchers ??= table.entries.map((entry) => ({ route: entry.route, regex: toRegex(entry.pattern) }));
    if (basePath) {
      if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
      path = path.slice(basePath.length) || "/";
    }
    return matchers.find((m) => m.regex.test(path))?.route;
  };
}

function toRegex(pattern: string): RegExp {
  const source = pattern
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}
