import type { Conventions, ViewClass } from "./conventions.js";
import { baseMemberNames, methodsOf, viewClassesOf, type FoundMethod, type ViewModule } from "./discovery.js";
import { E_INVALID_ROUTE_PATH, E_RESERVED_NAME, E_ROUTE_CONFLICT, E_TABLE_FROZEN } from "./errors.js";
import { prefixOwnerOf, readClassMetadata, readMethodMetadata } from "./metadata.js";
import { kebabCase } from "./naming.js";
import { readParameters } from "./parameters.js";
import { joinPath, patternParams, patternShape, trimTrailingSlashes, validateRoutePath } from "./paths.js";
import type { Route, RouteParameter } from "./route.js";
import { checkRouteSchemas, CLASS_SCHEMAS_TAG, SCHEMAS_TAG } from "./route-schemas.js";
import { RouteTable } from "./table.js";
import type { Verb } from "./verbs.js";

/** Input of {@link buildRouteTable}. */
export interface RouteTableInput {
  readonly conventions: Conventions;
  readonly modules: readonly ViewModule[];
}

/** Builds and freezes the route table of the given view modules (see {@link RouteTableBuilder}). */
export function buildRouteTable(input: RouteTableInput): RouteTable {
  const builder = new RouteTableBuilder(input.conventions);
  for (const module of input.modules) builder.addModule(module);
  return builder.commit();
}

/**
 * Collects view classes, then commits them into a frozen {@link RouteTable}. Every routing rule of
 * docs/routing.md is applied here, once, at start-up; adding after `commit()` throws `E_TABLE_FROZEN`.
 */
export class RouteTableBuilder {
  readonly #conventions: Conventions;
  readonly #reserved: Set<string>;
  readonly #classes: Array<{ cls: ViewClass; module: string }> = [];
  readonly #added = new Set<ViewClass>();
  #committed = false;

  constructor(conventions: Conventions) {
    this.#conventions = conventions;
    this.#reserved = new Set([...baseMemberNames(conventions.baseClass), ...(conventions.reservedNames ?? [])]);
  }

  /** Adds every exported view class of a module. */
  addModule(module: ViewModule): this {
    for (const cls of viewClassesOf(module, this.#conventions.baseClass)) this.addClass(cls, module.name);
    return this;
  }

  /** Adds one view class, as if exported by `module`. */
  addClass(cls: ViewClass, module: string): this {
    if (this.#committed) throw new E_TABLE_FROZEN(`the view class ${cls.name}`);
    if (!this.#added.has(cls)) {
      this.#added.add(cls);
      this.#classes.push({ cls, module });
    }
    return this;
  }

  /** Builds the routes, checks conflicts, and freezes the table. */
  commit(): RouteTable {
    if (this.#committed) throw new E_TABLE_FROZEN("a second commit");
    this.#committed = true;
    const shared = new CommitCache();
    const routes: Route[] = [];
    for (const { cls, module } of this.#classes) this.#routesOf(cls, module, shared, routes);
    checkConflicts(routes);
    return new RouteTable(routes);
  }

  #routesOf(cls: ViewClass, module: string, shared: CommitCache, routes: Route[]): void {
    const conventions = this.#conventions;
    const className = cls.name;
    const classMeta = readClassMetadata(cls);
    const prefix = classMeta.prefix ?? (className === conventions.rootClassName ? "" : `/${kebabCase(className)}`);
    const prefixParams = new Set(patternParams(prefix));
    const context: ClassContext = {
      cls,
      className,
      module,
      prefix,
      prefixParams,
      classTags: classMeta.tags,
      frozenTags: undefined,
    };
    for (const method of methodsOf(cls, conventions.baseClass)) {
      if (!this.#isRoutable(cls, method)) continue;
      routes.push(this.#routeOf(context, method, shared));
    }
  }

  #isRoutable(cls: ViewClass, method: FoundMethod): boolean {
    const { name } = method;
    if (name.startsWith("_") || this.#conventions.hookNames.includes(name)) return false;
    if (this.#reserved.has(name)) throw new E_RESERVED_NAME(`${cls.name}.${name}()`, name);
    return true;
  }

  #routeOf(context: ClassContext, method: FoundMethod, shared: CommitCache): Route {
    const conventions = this.#conventions;
    const { cls, className, prefix, prefixParams } = context;
    const methodName = method.name;
    const handler = `${className}.${methodName}()`;
    const meta = readMethodMetadata(cls, method.declarer, methodName);
    const declared = readParameters(method.fn, handler);
    const verbs = meta?.verbs.length ? meta.verbs : (conventions.verbsByName[methodName] ?? conventions.defaultVerbs);

    let patterns: string[];
    let parameters: RouteParameter[];
    let path: string;
    if (meta?.paths.length) {
      patterns = meta.paths.map((p) => joinPath(prefix, p));
      const inPath = new Set(patterns.flatMap(patternParams));
      parameters = declared.map((p) => ({
        name: p.name,
        optional: p.optional,
        source: prefixParams.has(p.name) ? "prefix" : inPath.has(p.name) ? "path" : "none",
      }));
      path = patterns.join(" | ");
    } else {
      const silent = conventions.silentNames.includes(methodName);
      const segment = silent ? "" : this.#segmentOf(methodName, handler, shared);
      if (declared.length === 0) {
        // No parameter: one pattern, the same as the displayed path (what the general case gives).
        path = this.#finish(joinPath(prefix, segment));
        patterns = [path];
        parameters = [];
      } else {
        // Optional segments must be trailing: a default followed by a required parameter is required.
        const segmentParams = declared.filter((p) => !prefixParams.has(p.name));
        let firstOptional = segmentParams.length;
        while (firstOptional > 0 && segmentParams[firstOptional - 1]!.optional) firstOptional--;
        const base = silent ? [] : [segment];
        const build = (count: number, mark = false) =>
          this.#finish(
            joinPath(
              prefix,
              [
                ...base,
                ...segmentParams.slice(0, count).map((p, i) => `:${p.name}${mark && i >= firstOptional ? "?" : ""}`),
              ].join("/"),
            ),
          );
        patterns = [];
        for (let count = firstOptional; count <= segmentParams.length; count++) patterns.push(build(count));
        path = build(segmentParams.length, true);
        parameters = declared.map((p) => {
          const fromPrefix = prefixParams.has(p.name);
          const index = segmentParams.indexOf(p);
          return {
            name: p.name,
            optional: !fromPrefix && index >= firstOptional,
            source: fromPrefix ? "prefix" : "path",
          };
        });
      }
    }
    const route: Route = Object.freeze({
      id: `${className}.${methodName}`,
      module: context.module,
      viewClass: cls,
      className,
      methodName,
      verbs: shared.frozenVerbs(verbs),
      path,
      patterns: Object.freeze(patterns),
      parameters: parameters.length === 0 ? NO_PARAMETERS : Object.freeze(parameters.map((p) => Object.freeze(p))),
      // Without method metadata the tags are the class's: one frozen copy serves all its routes.
      tags: meta
        ? Object.freeze({ ...context.classTags, ...meta.tags })
        : (context.frozenTags ??= Object.freeze({ ...context.classTags })),
      generated: !meta?.paths.length,
    });
    // Declared schemas are checked here, where the route's name is known (start-up, not per request).
    if (meta?.tags[SCHEMAS_TAG] !== undefined || context.classTags[CLASS_SCHEMAS_TAG] !== undefined)
      checkRouteSchemas(route);
    return route;
  }

  /** The generated segment of a method name, checked once per name and commit. */
  #segmentOf(methodName: string, handler: string, shared: CommitCache): string {
    const known = shared.segments.get(methodName);
    if (known !== undefined) return known;
    const segment = kebabCase(methodName);
    // A method named with a string literal may hold characters a path segment cannot.
    validateRoutePath(segment, `${handler} (its generated segment)`);
    if (segment === "") throw new E_INVALID_ROUTE_PATH(handler, methodName, "the method name gives an empty segment");
    shared.segments.set(methodName, segment);
    return segment;
  }

  /** Applies the trailing-slash policy to a generated path. */
  #finish(pattern: string): string {
    if (pattern === "/") return pattern;
    const bare = trimTrailingSlashes(pattern);
    return this.#conventions.trailingSlash ? `${bare}/` : bare;
  }
}

const NO_PARAMETERS: readonly RouteParameter[] = Object.freeze([]);

/** What every route of one class shares while it is built. */
interface ClassContext {
  readonly cls: ViewClass;
  readonly className: string;
  readonly module: string;
  readonly prefix: string;
  readonly prefixParams: ReadonlySet<string>;
  readonly classTags: Readonly<Record<string, unknown>>;
  /** The class tags frozen, made on first use. */
  frozenTags: Readonly<Record<string, unknown>> | undefined;
}

/** Values computed once per commit and shared by its routes (names and verb lists repeat). */
class CommitCache {
  /** Generated segment by method name. */
  readonly segments = new Map<string, string>();
  readonly #verbs = new Map<readonly Verb[], readonly Verb[]>();

  /** A frozen copy of a verb list, one per list (the conventions' lists serve most routes). */
  frozenVerbs(verbs: readonly Verb[]): readonly Verb[] {
    let frozen = this.#verbs.get(verbs);
    if (!frozen) {
      frozen = Object.freeze([...verbs]);
      this.#verbs.set(verbs, frozen);
    }
    return frozen;
  }
}

function checkConflicts(routes: readonly Route[]): void {
  // Each (verb, shape) pair is owned by the first route that has it; another route with the pair is
  // a conflict, reported in route, pattern, verb order. Most shapes have one route: the owners by
  // verb are only made when a second route reaches a shape.
  const first = new Map<string, Route>();
  const byVerb = new Map<string, Map<string, Route>>();
  for (const route of routes) {
    for (const pattern of route.patterns) {
      const shape = patternShape(pattern);
      const owner = first.get(shape);
      if (owner === undefined) {
        first.set(shape, route);
        continue;
      }
      if (owner === route && !byVerb.has(shape)) continue;
      let owners = byVerb.get(shape);
      if (!owners) {
        owners = new Map(owner.verbs.map((verb) => [verb, owner]));
        byVerb.set(shape, owners);
      }
      for (const verb of route.verbs) {
        const other = owners.get(verb);
        if (other && other !== route) {
          throw new E_ROUTE_CONFLICT(verb, pattern, describe(other), describe(route));
        }
        owners.set(verb, route);
      }
    }
  }
}

/**
 * A handler as a conflict names it. An inherited method, or a class route taken from an ancestor,
 * is said so: two subclasses of one prefixed class otherwise look unrelated to the path they share.
 */
function describe(route: Route): string {
  const notes: string[] = [];
  const declarer = declaringClass(route.viewClass, route.methodName);
  if (declarer !== undefined && declarer !== route.viewClass) notes.push(`inherited from ${declarer.name}`);
  const owner = prefixOwnerOf(route.viewClass);
  if (owner !== undefined && owner !== route.viewClass) {
    notes.push(
      `served under the class route of ${owner.name}; give ${route.className} a class route of its own to serve it elsewhere`,
    );
  }
  return `${route.id}() in views/${route.module}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
}

/** The class of `cls`'s chain whose prototype declares `name`. */
function declaringClass(cls: Function, name: string): Function | undefined {
  for (
    let c: Function | null = cls;
    c !== null && c !== Function.prototype;
    c = Object.getPrototypeOf(c) as Function | null
  ) {
    if (Object.hasOwn(c.prototype as object, name)) return c;
  }
  return undefined;
}
