import type { ViewClass } from "./conventions.js";

/** A view module: its path under `views/` without extension, and its exports. */
export interface ViewModule {
  /** `main` for `views/main.ts`, `admin/users` for `views/admin/users.ts`. */
  readonly name: string;
  /** The module namespace (or any object of exports). */
  readonly exports: Readonly<Record<string, unknown>>;
}

/** Tells whether `value` is a class that extends `base`, directly or through other classes. */
export function extendsBase(value: unknown, base: ViewClass): value is ViewClass {
  return typeof value === "function" && value !== base && value.prototype instanceof base;
}

/** The exported view classes of a module, in export order, each once. */
export function viewClassesOf(module: ViewModule, base: ViewClass): ViewClass[] {
  const seen = new Set<ViewClass>();
  for (const value of Object.values(module.exports)) {
    if (extendsBase(value, base)) seen.add(value);
  }
  return [...seen];
}

/** A method found on a view class, with the class whose prototype declares it. */
export interface FoundMethod {
  readonly name: string;
  readonly fn: Function;
  readonly declarer: Function;
}

/**
 * The candidate methods of a view class: own and inherited from view ancestors (never from the
 * base class), nearest declaration first, skipping getters, setters and non-functions.
 */
export function methodsOf(cls: ViewClass, base: ViewClass): FoundMethod[] {
  const chain: object[] = [];
  for (
    let proto = cls.prototype as object | null;
    proto && proto !== base.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    chain.push(proto);
  }
  // Most view classes extend the base directly: their own members, in order, are the answer.
  if (chain.length === 1) {
    const proto = chain[0]!;
    const declarer = (proto as { constructor: Function }).constructor;
    const found: FoundMethod[] = [];
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === "constructor") continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
      if (!descriptor.get && !descriptor.set && typeof descriptor.value === "function")
        found.push({ name, fn: descriptor.value as Function, declarer });
    }
    return found;
  }
  // Walk from the oldest ancestor down: an override keeps its parent's position (Map order).
  const found = new Map<string, FoundMethod | null>();
  for (let i = chain.length - 1; i >= 0; i--) {
    // An accessor or data property shadows an inherited method of the same name.
    ownMethods(chain[i]!, (name, method) => found.set(name, method));
  }
  return [...found.values()].filter((method): method is FoundMethod => method !== null);
}

/** Calls `each` for every own member of a prototype but `constructor`: the method, or null when it is no method. */
function ownMethods(proto: object, each: (name: string, method: FoundMethod | null) => void): void {
  const declarer = (proto as { constructor: Function }).constructor;
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === "constructor") continue;
    const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
    const isMethod = !descriptor.get && !descriptor.set && typeof descriptor.value === "function";
    each(name, isMethod ? { name, fn: descriptor.value as Function, declarer } : null);
  }
}

/** Every member name of the base class and its ancestors (Object's included). */
export function baseMemberNames(base: ViewClass): Set<string> {
  const names = new Set<string>();
  for (let proto = base.prototype as object | null; proto; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== "constructor") names.add(name);
  }
  return names;
}
