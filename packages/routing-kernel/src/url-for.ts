import { E_MISSING_ROUTE_PARAMETER } from "./errors.js";
import { patternParams } from "./paths.js";
import type { Route } from "./route.js";

/** Parameter values for reverse routing: by name, or positional in declaration order. */
export type UrlParams = Readonly<Record<string, unknown>> | readonly unknown[];

/** Fills a route's pattern with values (see `RouteTable.urlFor`). */
export function buildUrl(route: Route, params: UrlParams = {}): string {
  const values = new Map<string, unknown>();
  if (Array.isArray(params)) {
    route.parameters.forEach((p, i) => {
      if (params[i] !== undefined && params[i] !== null) values.set(p.name, params[i]);
    });
  } else {
    for (const [key, value] of Object.entries(params))
      if (value !== undefined && value !== null) values.set(key, value);
  }
  // The longest pattern whose parameters all have values; the shortest one otherwise names what is missing.
  let chosen: string | undefined;
  let chosenCount = -1;
  for (const pattern of route.patterns) {
    const names = patternParams(pattern);
    if (names.every((name) => values.has(name)) && names.length > chosenCount) {
      chosen = pattern;
      chosenCount = names.length;
    }
  }
  if (chosen === undefined) {
    const missing = patternParams(route.patterns[0]!).find((name) => !values.has(name)) ?? "?";
    throw new E_MISSING_ROUTE_PARAMETER(route.id, missing);
  }
  const used = new Set(patternParams(chosen));
  if (route.generated) {
    // An optional segment cannot be filled while an earlier one is left out: name the gap instead
    // of silently moving the later value into the query string.
    const segments = route.parameters.filter((p) => p.source === "path");
    const gap = segments.find((p) => !used.has(p.name));
    if (gap && segments.some((p) => !used.has(p.name) && values.has(p.name))) {
      throw new E_MISSING_ROUTE_PARAMETER(route.id, gap.name);
    }
  }
  const path = chosen
    .split("/")
    .map((segment) => (segment.startsWith(":") ? encodeURIComponent(String(values.get(segment.slice(1)))) : segment))
    .join("/");
  const query = new URLSearchParams();
  for (const [key, value] of values) if (!used.has(key)) query.append(key, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
