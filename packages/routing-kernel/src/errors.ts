/**
 * Errors raised by the routing kernel. Every error has a stable `code` that callers branch on,
 * an HTTP `status` where one applies, and a message that says what to do.
 */

/** Base class of every coded error in the workspace. */
export class FrameworkError extends Error {
  /** Stable machine-readable code, such as `E_ROUTE_CONFLICT`. */
  readonly code: string;
  /** HTTP status this error maps to when it reaches a client. */
  readonly status: number;

  constructor(code: string, message: string, status = 500, options?: ErrorOptions) {
    super(message, options);
    this.name = "FrameworkError";
    this.code = code;
    this.status = status;
  }
}

/** A constructor made by {@link createError}: `new E_X(...args)` formats the message. */
export interface CodedErrorClass<Args extends unknown[]> {
  new (...args: Args): FrameworkError;
  /** The code every instance carries. */
  readonly code: string;
  /** The HTTP status every instance carries. */
  readonly status: number;
}

/**
 * A message assembled from parts says each period once: a part that ends a sentence (`"... records."`)
 * followed by the template's own period (`": ${reason}."`) would read "records.. Check". Only two
 * periods after a word, a bracket or a quote, before a space or the end, are folded: an ellipsis
 * (`...`) and a path (`../up`) stay as written.
 */
function tidyMessage(message: string): string {
  return message.replace(/(?<=[\p{L}\p{N})\]"'`])\.\.(?=\s|$)/gu, ".");
}

/**
 * Defines an error class with a fixed code and status; the message is built from the arguments.
 * Kept as classes so `instanceof` works, and as codes so two copies of a package still agree.
 */
export function createError<Args extends unknown[]>(
  code: string,
  status: number,
  format: (...args: Args) => string,
): CodedErrorClass<Args> {
  const ErrorClass = class extends FrameworkError {
    static readonly code = code;
    static readonly status = status;
    constructor(...args: Args) {
      super(code, tidyMessage(format(...args)), status);
      this.name = code;
    }
  };
  return ErrorClass;
}

/** Two handlers answer the same verb on the same path pattern. */
export const E_ROUTE_CONFLICT = createError(
  "E_ROUTE_CONFLICT",
  500,
  (verb: string, pattern: string, first: string, second: string) =>
    `${verb} ${pattern} is declared twice: by ${first} and by ${second}. Rename one method, restrict its verbs, or give it a path with a route decorator.`,
);

/** A view method uses a name the framework's base class already has. */
export const E_RESERVED_NAME = createError(
  "E_RESERVED_NAME",
  500,
  (handler: string, name: string) =>
    `${handler} collides with the base-class member "${name}". Rename the method (prefix it with "_" if it is not a route).`,
);

/** A rest or destructured parameter cannot become a path segment. */
export const E_UNSUPPORTED_PARAMETER = createError(
  "E_UNSUPPORTED_PARAMETER",
  500,
  (handler: string, detail: string) =>
    `${handler} has ${detail}; each parameter of a view method must be a plain name (optionally with a default value) because it becomes one path segment.`,
);

/** The parameters of a method could not be read from its source. */
export const E_UNREADABLE_PARAMETERS = createError(
  "E_UNREADABLE_PARAMETERS",
  500,
  (handler: string, reason: string) =>
    `The parameters of ${handler} cannot be read from its source (${reason}). Declare it as a plain class method, not a bound or native function.`,
);

/** A route path given to a decorator is malformed. */
export const E_INVALID_ROUTE_PATH = createError(
  "E_INVALID_ROUTE_PATH",
  500,
  (where: string, path: string, reason: string) => `The route path "${path}" on ${where} is invalid: ${reason}.`,
);

/** A decorator was applied to something it does not support. */
export const E_INVALID_DECORATOR_TARGET = createError(
  "E_INVALID_DECORATOR_TARGET",
  500,
  (decorator: string, kind: string) =>
    `@${decorator} cannot decorate a ${kind}; use it on a class or a public method of a view class.`,
);

/** The route table was changed after it was committed. */
export const E_TABLE_FROZEN = createError(
  "E_TABLE_FROZEN",
  500,
  (what: string) => `The route table is frozen after start-up; ${what} must be declared before the app is built.`,
);

/** `urlFor` was asked for a route that does not exist. */
export const E_UNKNOWN_ROUTE = createError(
  "E_UNKNOWN_ROUTE",
  500,
  (target: string) =>
    `No route is registered for ${target}. Check the class and method name (e.g. "Blog.comments") and that the view module is loaded.`,
);

/** `urlFor` was asked for a name that matches several routes. */
export const E_AMBIGUOUS_ROUTE = createError(
  "E_AMBIGUOUS_ROUTE",
  500,
  (target: string, modules: string) =>
    `"${target}" names classes in several view modules (${modules}); pass the class itself to urlFor instead of its name.`,
);

/** `urlFor` lacks a value for a required parameter. */
export const E_MISSING_ROUTE_PARAMETER = createError(
  "E_MISSING_ROUTE_PARAMETER",
  500,
  (target: string, name: string) => `urlFor(${target}) needs a value for the parameter "${name}".`,
);

/** A decorator was given an option it does not know, or options where it takes none. */
export const E_UNKNOWN_OPTION = createError(
  "E_UNKNOWN_OPTION",
  500,
  (where: string, key: string, known: readonly string[], suggestion?: string) =>
    known.length === 0
      ? `${where} takes no options, but was given ${JSON.stringify(key)}. Use it bare or with empty parentheses.`
      : `${where} has no option ${JSON.stringify(key)}.${suggestion ? ` Did you mean "${suggestion}"?` : ""} Its options are: ${known.join(", ")}.`,
);

/** A schema decorator was given something that is not a Standard Schema (zod 4, valibot, arktype...). */
export const E_NOT_STANDARD_SCHEMA = createError(
  "E_NOT_STANDARD_SCHEMA",
  500,
  (where: string, got: string) =>
    `${where} needs a Standard Schema (a zod 4, valibot or arktype schema, anything with "~standard"), but ${got}. Pass the schema itself, e.g. z.object({...}).`,
);

/** A response-schema decorator was given a status that is not an HTTP status code. */
export const E_INVALID_RESPONSE_STATUS = createError(
  "E_INVALID_RESPONSE_STATUS",
  500,
  (where: string, status: string) =>
    `${where} was given the status ${status}; give an HTTP status code from 100 to 599, e.g. 200.`,
);
