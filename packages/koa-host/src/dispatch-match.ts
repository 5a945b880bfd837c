/**
 * The view routes' paths, matched: one map of static paths and one find-my-way radix tree, built
 * once at start-up from the route table alone (nothing the plugins give), so matching cost does not
 * grow with the number of routes and the route of a request is known before the dispatcher is built.
 */
import FindMyWay from "find-my-way";
import type { Route, RouteTable, Verb } from "routing-kernel";
import { patternParams, patternShape, sortVerbs } from "routing-kernel/plugin";

/** The route one verb of a path shape goes to. */
export interface VerbTarget {
  readonly route: Route;
  /** The route's parameter names in the order of the path's values. */
  readonly names: readonly string[];
  /** The position in `table.entries` of the pattern it was registered from (the dispatcher's handler). */
  readonly index: number;
  /** What `runtime.lookupRoute` answers for a request this target serves, made once at start-up. */
  readonly lookup: { readonly route: Route; readonly answersItself: false };
}

/** Everything one path shape answers, decided at start-up. */
export interface PathEntry {
  readonly targets: Partial<Record<string, VerbTarget>>;
  readonly allow: string;
  readonly keys: readonly string[];
}

/** A matched path: its entry and its parameters by find-my-way's names. */
export interface PathMatch {
  readonly entry: PathEntry;
  readonly params: Readonly<Record<string, string | undefined>>;
}

/** The targets of each path shape by verb: the first pattern giving a verb to a shape keeps it. */
function targetsByShape(table: RouteTable): Map<string, Partial<Record<string, VerbTarget>>> {
  const shapes = new Map<string, Partial<Record<string, VerbTarget>>>();
  table.entries.forEach(({ route, pattern }, index) => {
    const shape = patternShape(pattern);
    const lookup = Object.freeze({ route, answersItself: false as const });
    const target: VerbTarget = { route, names: patternParams(pattern), index, lookup };
    let targets = shapes.get(shape);
    if (!targets) {
      targets = {};
      shapes.set(shape, targets);
    }
    for (const verb of route.verbs) targets[verb] ??= target;
  });
  return shapes;
}

/**
 * The matcher of a route table's paths: the entry and parameters of a path, as a router holding
 * every shape would answer. Static paths (most of an app's) are answered from a map: registering
 * each in find-my-way costs two compiled functions at start-up. They join the router only if a
 * path needs its own URL handling. For a path that starts with `/` and has no `?` or `#` (every
 * path Koa gives), the router compares static routes with the path itself, or with its `decodeURI`
 * form when it has escapes other than those of reserved characters (with those, its form keeps a
 * `%` and matches no static path of the map): a static route that equals it wins over any
 * parameter. Other paths go to the router after the static paths have joined it.
 */
export function pathMatcher(table: RouteTable): (path: string) => PathMatch | undefined {
  const router = FindMyWay({
    caseSensitive: true,
    ignoreTrailingSlash: false,
    ignoreDuplicateSlashes: false,
    maxParamLength: 2048,
  });
  const statics = new Map<string, PathEntry>();
  const allows = new Map<string, string>();
  for (const [shape, targets] of targetsByShape(table)) {
    const allow = allowOf(Object.keys(targets) as Verb[], allows);
    if (targets["GET"] && !targets["HEAD"]) targets["HEAD"] = targets["GET"];
    const store: PathEntry = { targets, allow, keys: keysOf(shape) };
    if (isPlainStatic(shape)) statics.set(shape, store);
    else router.on("GET", toFindMyWay(shape), noop, store);
  }
  let staticsInRouter = false;

  /** The router's answer: an entry and its parameters; an empty segment never fills a parameter (`/doc/` is not `/doc/:id`). */
  const routerMatch = (path: string): PathMatch | undefined => {
    const found = router.find("GET", path);
    if (!found) return undefined;
    const params = found.params as Record<string, string | undefined>;
    const keys = (found.store as PathEntry).keys;
    for (let i = 0; i < keys.length; i++) if (!params[keys[i]!]) return undefined;
    return { entry: found.store as PathEntry, params };
  };

  return (path) => {
    if (path.charCodeAt(0) === SLASH && !path.includes("?") && !path.includes("#")) {
      const key = path.includes("%") ? decodedForStatics(path) : path;
      const entry = key === undefined ? undefined : statics.get(key);
      if (entry) return { entry, params: NO_PARAMS };
      return routerMatch(path);
    }
    if (!staticsInRouter) {
      staticsInRouter = true;
      for (const [shape, store] of statics) router.on("GET", toFindMyWay(shape), noop, store);
    }
    return routerMatch(path);
  };
}

function noop(): void {}

const SLASH = 47;
const NO_PARAMS: Readonly<Record<string, string | undefined>> = Object.freeze({});
const NO_KEYS: readonly string[] = Object.freeze([]);
// Escapes find-my-way leaves encoded in the path it matches (reserved characters and `%` itself).
const RESERVED_ESCAPE = /%(?:2[3-6bcfBCF]|3[abdfABDF]|40)/;

/** A shape the static map can answer: no parameter, and nothing find-my-way reads specially. */
function isPlainStatic(shape: string): boolean {
  return shape.charCodeAt(0) === SLASH && !shape.includes(":") && !shape.includes("*") && !shape.includes("%");
}

/** The path find-my-way compares static routes with, when it can equal one of the map's; else undefined. */
function decodedForStatics(path: string): string | undefined {
  if (RESERVED_ESCAPE.test(path)) return undefined;
  try {
    return decodeURI(path);
  } catch {
    return undefined;
  }
}

/** The `Allow` list of a shape's verbs (HEAD with GET, OPTIONS always), one string per verb set. */
function allowOf(verbs: readonly Verb[], cache: Map<string, string>): string {
  const key = verbs.join();
  let allow = cache.get(key);
  if (allow === undefined) {
    const sorted = sortVerbs(verbs);
    if (sorted.includes("GET") && !sorted.includes("HEAD")) sorted.splice(1, 0, "HEAD");
    if (!sorted.includes("OPTIONS")) sorted.push("OPTIONS");
    allow = sorted.join(", ");
    cache.set(key, allow);
  }
  return allow;
}

/** find-my-way wants one name per parameter position; shapes use `:` alone. */
function toFindMyWay(shape: string): string {
  let i = 0;
  return shape
    .split("/")
    .map((segment) => (segment === ":" ? `:p${i++}` : segment.replace(/:/g, "::")))
    .join("/");
}

function keysOf(shape: string): readonly string[] {
  if (!shape.includes(":")) return NO_KEYS;
  return shape
    .split("/")
    .filter((segment) => segment === ":")
    .map((_, i) => `p${i}`);
}
