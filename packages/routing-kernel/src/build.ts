import type { Conventions, ViewClass } from "./conventions.js";
import { baseMemberNames, methodsOf, viewClassesOf, type FoundMethod, type ViewModule } from "./discovery.js";
import { E_INVALID_ROUTE_PATH, E_RESERVED_NAME, E_ROUTE_CONFLICT, E_TABLE_FROZEN } from "./errors.js";
import { readClassMetadata, readMethodMetadata } from "./metadata.js";
import { kebabCase } from "./naming.js";
import { readParameters } from "./parameters.js";
import { joinPath, patternParams, patternShape, validateRoutePath } from "./paths.js";
import type { Route, RouteParameter } from "./route.js";
import { RouteTable } from "./table.js";

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
 * Collects view classes, then commits them into a frozen {@link RouteTable}. Every rule of SPEC
 * section 2 is applied here, once, at start-up; adding after `commit()` throws `E_TABLE_FROZEN`.
 */
export class RouteTableBuilder {
  readonly #conventions: Conventions;
  readonly #reserved: Set<string>;
  readonly #classes: Array<{ cls: ViewClass; module: string }> = [];
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
    if (!this.#classes.some((entry) => entry.cls === cls)) this.#classes.push({ cls, module });
    return this;
  }

  /** Builds the routes, checks conflicts, and freezes the table. */
  commit(): RouteTable {
    if (this.#committed) throw new E_TABLE_FROZEN("a second commit");
    this.#committed = true;
    const routes = this.#classes.flatMap(({ cls, module }) => this.#routesOf(cls, module));
    checkConflicts(routes);
    return new RouteTable(routes);
  }

  #routesOf(cls: ViewClass, module: string): Route[] {
    const conventions = this.#conventions;
    const classMeta = readClassMetadata(cls);
    const prefix =
      classMeta.prefix ?? (cls.name === conventions.rootClassName ? "" : `/${kebabCase(cls.name)}`);
    const prefixParams = new Set(patternParams(prefix));
    const routes: Route[] = [];
    for (const method of methodsOf(cls, conventions.baseClass)) {
      if (!this.#isRoutable(cls, method)) continue;
      routes.push(this.#routeOf(cls, module, method, prefix, prefixParams, classMeta.tags));
    }
    return routes;
  }

  #isRoutable(cls: ViewClass, method: FoundMethod): boolean {
    const { name } = method;
    if (name.startsWith("_") || this.#conventions.hookNames.includes(name)) return false;
    if (this.#reserved.has(name)) throw new E_RESERVED_NAME(`${cls.name}.${name}()`, name);
    return true;
  }

  #routeOf(
    cls: ViewClass,
    module: string,
    method: FoundMethod,
    prefix: string,
    prefixParams: ReadonlySet<string>,
    classTags: Readonly<Record<string, unknown>>,
  ): Route {
    const conventions = this.#conventions;
    const handler = `${cls.name}.${method.name}()`;
    const meta = readMethodMetadata(cls, method.declarer, method.name);
    const declared = readParameters(method.fn, handler);
    const verbs = meta?.verbs.length
      ? meta.verbs
      : (conventions.verbsByName[method.name] ?? conventions.defaultVerbs);

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
      // Optional segments must be trailing: a default followed by a required parameter is required.
      const segmentParams = declared.filter((p) => !prefixParams.has(p.name));
      let firstOptional = segmentParams.length;
      while (firstOptional > 0 && segmentParams[firstOptional - 1]!.optional) firstOptional--;
      const silent = conventions.silentNames.includes(method.name);
      const base = silent ? [] : [kebabCase(method.name)];
      // A method named with a string literal may hold characters a path segment cannot.
      if (!silent) {
        validateRoutePath(base[0], `${handler} (its generated segment)`);
        if (base[0] === "") throw new E_INVALID_ROUTE_PATH(handler, method.name, "the method name gives an empty segment");
      }
      const build = (count: number, mark = false) =>
        this.#finish(
          joinPath(
            prefix,
            [...base, ...segmentParams.slice(0, count).map((p, i) => `:${p.name}${mark && i >= firstOptional ? "?" : ""}`)].join("/"),
          ),
        );
      patterns = [];
      for (let count = firstOptional; count <= segmentParams.length; count++) patterns.push(build(count));
      path = build(segmentParams.length, true);
      parameters = declared.map((p) => {
        const fromPrefix = prefixParams.has(p.name);
        const index = segmentParams.indexOf(p);
        return { name: p.name, optional: !fromPrefix && index >= firstOptional, source: fromPrefix ? "prefix" : "path" };
      });
    }
    return Object.freeze({
      id: `${cls.name}.${method.name}`,
      module,
      viewClass: cls,
      className: cls.name,
      methodName: method.name,
      verbs: Object.freeze([...verbs]),
      path,
      patterns: Object.freeze(patterns),
      parameters: Object.freeze(parameters.map((p) => Object.freeze(p))),
      tags: Object.freeze({ ...classTags, ...meta?.tags }),
      generated: !meta?.paths.length,
    });
  }

  /** Applies the trailing-slash policy to a generated path. */
  #finish(pattern: string): string {
    if (pattern === "/") return pattern;
    const bare = pattern.replace(/\/+$/, "");
    return this.#conventions.trailingSlash ? `${bare}/` : bare;
  }
}

function checkConflicts(routes: readonly Route[]): void {
  const owners = new Map<string, Route>();
  for (const route of routes) {
    for (const pattern of route.patterns) {
      for (const verb of route.verbs) {
        const key = `${verb} ${patternShape(pattern)}`;
        const other = owners.get(key);
        if (other && other !== route) {
          throw new E_ROUTE_CONFLICT(verb, pattern, describe(other), describe(route));
        }
        owners.set(key, route);
      }
    }
  }
}

function describe(route: Route): string {
  return `${route.id}() in views/${route.module}`;
}
