/**
 * Shared fixtures of the kernel's tests: a base class, the verb and route decorators a framework
 * would define, and a one-call table builder.
 */
import {
  ALL_VERBS,
  buildRouteTable,
  defineConventions,
  responseKindTag,
  restrictVerbs,
  routePath,
  type RouteTable,
  type Verb,
} from "../src/index.js";

/** The base class of test views; `ctx` is an instance member the framework sets. */
export class View {
  /** Set per request by a host; reserved, so no method may be named `ctx`. */
  ctx: unknown;
  /** A base-class helper, so a view method named `redirect` collides. */
  redirect(to: string): string {
    return to;
  }
}

/** Verb decorators as a framework exposes them (`@request.get`...). */
export const request = {
  get: restrictVerbs("request.get", ["GET"]),
  post: restrictVerbs("request.post", ["POST"]),
  put: restrictVerbs("request.put", ["PUT"]),
  patch: restrictVerbs("request.patch", ["PATCH"]),
  delete: restrictVerbs("request.delete", ["DELETE"]),
  options: restrictVerbs("request.options", ["OPTIONS"]),
  all: restrictVerbs("request.all", ALL_VERBS),
  route: (path: string) => routePath("request.route", path),
};

/** A response-kind decorator as fw-a's `@response.json` would be. */
export const json = responseKindTag("response.json", "json");

/** Builds the table of the given exports as one module `main`. */
export function tableOf(exports: Record<string, unknown>, trailingSlash = false): RouteTable {
  const conventions = defineConventions({ baseClass: View, trailingSlash, reservedNames: ["ctx"] });
  return buildRouteTable({ conventions, modules: [{ name: "main", exports }] });
}

/** `[verbs, pattern]` pairs of a table in matching order, for compact assertions. */
export function entriesOf(table: RouteTable): Array<[string, string]> {
  return table.entries.map((entry) => [entry.route.verbs.join(","), entry.pattern]);
}

/** The single route of `Class.method`. */
export function routeOf(
  table: RouteTable,
  id: string,
): { verbs: readonly Verb[]; patterns: readonly string[]; path: string } {
  return table.find(id);
}

/** Runs `fn` and returns the coded error it throws (fails if it does not throw). */
export function codeOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error("expected an error, none was thrown");
}
