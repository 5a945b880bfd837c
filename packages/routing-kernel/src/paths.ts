import { E_INVALID_ROUTE_PATH } from "./errors.js";

// A `:name` whose name is a JavaScript identifier (parameter names become path parameters).
const PARAM = /^:([\p{ID_Start}_$][\p{ID_Continue}$\u200c\u200d]*)$/u;
const STATIC_SEGMENT = /^[^\s?#:*]*$/;

/** Checks a path given to a route decorator: static segments and `:name` parameters. */
export function validateRoutePath(path: unknown, where: string): asserts path is string {
  if (typeof path !== "string") throw new E_INVALID_ROUTE_PATH(where, String(path), "it must be a string");
  for (const segment of path.split("/")) {
    if (segment.startsWith(":")) {
      if (!PARAM.test(segment))
        throw new E_INVALID_ROUTE_PATH(where, path, `"${segment}" is not a valid :name parameter`);
    } else if (!STATIC_SEGMENT.test(segment)) {
      throw new E_INVALID_ROUTE_PATH(where, path, `"${segment}" contains whitespace, "?", "#", ":" or "*"`);
    }
  }
}

/** The `:name` parameters of a path pattern, in order. */
export function patternParams(pattern: string): string[] {
  // A pattern without `:` has no parameter (most do not; this runs for every route at start-up).
  if (!pattern.includes(":")) return [];
  const names: string[] = [];
  for (const segment of pattern.split("/")) {
    const match = PARAM.exec(segment);
    if (match) names.push(match[1]!);
  }
  return names;
}

/** Joins a class prefix and a relative path: a leading `/` on `path` is still relative. */
export function joinPath(prefix: string, path: string): string {
  const head = trimTrailingSlashes(prefix);
  if (path === "") return head === "" ? "/" : head;
  const tail = path.startsWith("/") ? path : `/${path}`;
  const joined = `${head}${tail}`;
  return joined.startsWith("/") ? joined : `/${joined}`;
}

/** The shape of a pattern for conflict detection: parameter names do not matter. */
export function patternShape(pattern: string): string {
  if (!pattern.includes(":")) return pattern;
  return pattern
    .split("/")
    .map((segment) => (segment.startsWith(":") ? ":" : segment))
    .join("/");
}

/** The same path with its trailing slash toggled, or `undefined` for the root. */
export function toggleTrailingSlash(pattern: string): string | undefined {
  if (pattern === "/" || pattern === "") return undefined;
  return pattern.endsWith("/") ? pattern.slice(0, -1) : `${pattern}/`;
}

/**
 * The sort key of a pattern for {@link comparePatterns}: one character per segment, `0` for a
 * static segment and `1` for a parameter. Comparing keys as strings is the route order.
 */
export function patternOrderKey(pattern: string): string {
  // Without a parameter the key is one 0 per segment: count the slashes.
  if (!pattern.includes(":")) {
    let segments = 1;
    for (let at = pattern.indexOf("/"); at !== -1; at = pattern.indexOf("/", at + 1)) segments++;
    return "0".repeat(segments);
  }
  // One pass over the characters: each segment starts at 0 or after a `/`.
  let key = pattern.charCodeAt(0) === COLON ? "1" : "0";
  for (let i = 0; i < pattern.length; i++) {
    if (pattern.charCodeAt(i) === SLASH) key += pattern.charCodeAt(i + 1) === COLON ? "1" : "0";
  }
  return key;
}

const SLASH = 47;
const COLON = 58;

/** The string without its trailing slashes (`/a//` -> `/a`, `/` -> ``). */
export function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end--;
  return end === path.length ? path : path.slice(0, end);
}

/**
 * Orders patterns so that static segments come before parameters, whatever the declaration order:
 * segment by segment, a static segment sorts before a parameter; when one pattern's shape is a
 * prefix of the other's, the shorter comes first; otherwise the order is kept. This is a total
 * order (a comparator that called prefixes "equal" was not transitive and let `/items/:id`
 * sort before `/items/latest`).
 */
export function comparePatterns(a: string, b: string): number {
  const left = patternOrderKey(a);
  const right = patternOrderKey(b);
  return left < right ? -1 : left > right ? 1 : 0;
}
