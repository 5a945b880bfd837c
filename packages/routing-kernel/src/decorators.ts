import { E_INVALID_DECORATOR_TARGET, E_UNKNOWN_OPTION } from "./errors.js";
import { updateClassMetadata, updateMethodMetadata } from "./metadata.js";
import { validateRoutePath } from "./paths.js";
import { sortVerbs, type Verb } from "./verbs.js";

/** The context TC39 passes to a decorator of a class or of a method. */
export type ViewDecoratorContext = ClassDecoratorContext | ClassMethodDecoratorContext;

/** A TC39 standard decorator usable on a view class or a view method. */
export type ViewDecorator = (value: unknown, context: ViewDecoratorContext) => void;

/** A TC39 standard decorator usable on a view method only. */
export type MethodDecorator = (value: unknown, context: ClassMethodDecoratorContext) => void;

/** Tells whether a call received `(value, context)` from the decorator runtime. */
export function isDecoratorCall(args: readonly unknown[]): args is [unknown, ViewDecoratorContext] {
  const context = args[1] as { kind?: unknown; metadata?: unknown } | undefined;
  return (
    args.length === 2 &&
    typeof context === "object" &&
    context !== null &&
    typeof context.kind === "string" &&
    "metadata" in context
  );
}

function methodName(decorator: string, context: ViewDecoratorContext): string {
  if (context.kind !== "method" || context.static || context.private || typeof context.name !== "string") {
    const kind =
      context.kind === "method" ? (context.static ? "static method" : "private or symbol-named method") : context.kind;
    throw new E_INVALID_DECORATOR_TARGET(decorator, kind);
  }
  return context.name;
}

/**
 * Restricts a method to the given verbs (stacking adds verbs). Its generated path and
 * parameters are kept.
 */
export function restrictVerbs(decorator: string, verbs: readonly Verb[]): MethodDecorator {
  return (_value, context) => {
    const name = methodName(decorator, context);
    updateMethodMetadata(context.metadata, name, (current) => ({
      ...current,
      verbs: sortVerbs([...current.verbs, ...verbs]),
    }));
  };
}

/**
 * On a method: replaces its generated segment and parameter segments with `path`, relative to the
 * class prefix (several give several routes). On a class: replaces the prefix.
 */
export function routePath(decorator: string, path: string): ViewDecorator {
  return (_value, context) => {
    if (context.kind === "class") {
      validateRoutePath(path, `@${decorator} on class ${String(context.name)}`);
      updateClassMetadata(context.metadata, (current) => {
        current.prefix = path;
      });
      return;
    }
    const name = methodName(decorator, context);
    validateRoutePath(path, `@${decorator} on ${name}()`);
    // Decorators run bottom-up; prepending keeps the paths in the order they are written.
    updateMethodMetadata(context.metadata, name, (current) => ({ ...current, paths: [path, ...current.paths] }));
  };
}

/**
 * Attaches a framework-defined value under `key` to a class (inherited by subclasses and
 * overridden by method values) or to a method. The route table exposes the merged tags.
 */
export function setTag(decorator: string, key: string, value: unknown): ViewDecorator {
  return (_value, context) => {
    if (context.kind === "class") {
      updateClassMetadata(context.metadata, (current) => {
        current.tags = { ...current.tags, [key]: value };
      });
      return;
    }
    const name = methodName(decorator, context);
    updateMethodMetadata(context.metadata, name, (current) => ({
      ...current,
      tags: { ...current.tags, [key]: value },
    }));
  };
}

/**
 * Makes a decorator usable both bare (`@json`) and called (`@json()`), as the seeds write them.
 */
export function bareOrCalled<D extends (value: unknown, context: never) => void>(
  make: () => D,
  name?: string,
): D & (() => D) {
  const decorator = (...args: unknown[]): unknown => {
    if (isDecoratorCall(args)) return (make() as unknown as (...a: unknown[]) => unknown)(...args);
    // Called: `@x()` takes no options, so anything given is a mistake worth stopping at start-up.
    const given = args.find((arg) => arg !== undefined);
    if (given !== undefined) {
      throw new E_UNKNOWN_OPTION(
        `@${name ?? "this decorator"}()`,
        typeof given === "object" && given !== null ? (Object.keys(given)[0] ?? "{}") : String(given),
        [],
      );
    }
    return make();
  };
  return decorator as D & (() => D);
}
