/**
 * A typed place on an object for one value, under a symbol key (nothing shows in `Object.keys`):
 * the per-request state a plugin or the dispatcher keeps on Koa's context
 * (`const held = defineSlot<Resolution>("koa-host.resolved"); held.set(ctx, r)`), read back with
 * its type and no cast at the call site. The key is `Symbol.for(name)`, so two copies of a package
 * agree on it: give each slot a name of its own, prefixed with its package.
 */
export interface Slot<T> {
  /** The slot's name, for debugging. */
  readonly name: string;
  /** The value kept on `holder`, or undefined when none was set. */
  get(holder: object): T | undefined;
  /** Keeps `value` on `holder` (undefined clears it). */
  set(holder: object, value: T | undefined): void;
}

/** Makes a {@link Slot}: one per kind of value, created once at module level. */
export function defineSlot<T>(name: string): Slot<T> {
  const key = Symbol.for(name);
  return Object.freeze({
    name,
    get: (holder: object) => (holder as Record<symbol, T | undefined>)[key],
    set: (holder: object, value: T | undefined) => {
      (holder as Record<symbol, T | undefined>)[key] = value;
    },
  });
}
