import type { UrlParams } from "routing-kernel";

/** A value for one path parameter (written into the URL with `String(value)`, URL-encoded). */
export type RouteParamValue = string | number | bigint;

/**
 * The app's route names and their named parameters (`"Blog.show": { slug: RouteParamValue }`).
 * Empty in the kit: the app's generated `types/routes.d.ts` (`fw-a routes --types`,
 * `fw-b :routes --types`, refreshed by the dev server) fills it by module augmentation of its
 * framework's module. While it is empty, `urlFor` takes any name, as before.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by module augmentation, which a type alias cannot take.
export interface RouteParams {}

/**
 * The same routes' parameters as positional lists, in the method's argument order
 * (`urlFor("Blog.comments", [42])`). Filled by the same generated file.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by module augmentation, which a type alias cannot take.
export interface RouteParamLists {}

// True once a generated declaration has named at least one route.
type Typed = keyof RouteParams extends never ? false : true;

/** A route name `urlFor` accepts: the generated names, or any string when there are none. */
export type RouteName = Typed extends true ? Extract<keyof RouteParams, string> : string;

/** The class names of the generated routes (`"Blog"` of `"Blog.show"`), for `urlFor("Blog", "show", ...)`. */
export type RouteClassName = Typed extends true ? ClassOf<RouteName> : never;

// Distributes over the union of names: "Blog.show" | "Api.index" -> "Blog" | "Api".
type ClassOf<K> = K extends `${infer C}.${string}` ? C : never;

// Named values that are not parameters of the route become the query string.
type QueryValues = { readonly [key: string]: unknown };
type ListOf<K> = K extends keyof RouteParamLists ? RouteParamLists[K] : never;
type ParamsOf<K extends keyof RouteParams> = {} extends RouteParams[K]
  ? [params?: (RouteParams[K] & QueryValues) | ListOf<K>]
  : [params: (RouteParams[K] & QueryValues) | ListOf<K>];

/**
 * What follows a route name in `urlFor(name, ...)`: the route's parameters (required when it has
 * required ones) once the routes are generated; the loose `(methodOrParams?, params?)` before.
 */
export type RouteNameArgs<N extends string> = Typed extends true
  ? N extends keyof RouteParams
    ? ParamsOf<N>
    : never
  : [methodOrParams?: string | UrlParams, params?: UrlParams];

/** What follows `urlFor(className, methodName, ...)` for a generated route. */
export type RouteMethodArgs<C extends string, M extends string> = `${C}.${M}` extends keyof RouteParams
  ? ParamsOf<`${C}.${M}`>
  : never;
