import { routePath, type ViewDecorator } from "routing-kernel";

/**
 * On a class: replaces its prefix (`@route("/shop")`); every method inherits it, and `:name`
 * parameters in it bind to method parameters of the same name. On a method: replaces the generated
 * segment and parameter segments with `path`, relative to the class prefix; stack it for several
 * routes.
 */
export function route(path: string): ViewDecorator {
  return routePath("route", path);
}
