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

/**
 * A {@link Slot} that keeps its value on `ctx.state` under a key apps know and read
 * (`ctx.state.currentUser`, `ctx.state.locale`): the one place that names the key, in the package
 * that writes the value. Every other package reads and writes it through this object, typed; none
 * spells the key (test/request-state.test.ts refuses string access to `ctx.state` in packages).
 */
export interface StateSlot<T> extends Slot<T> {
  /** The key under `ctx.state` (for apps and templates; packages use the slot). */
  readonly key: string;
}

/** Anything carrying Koa's per-request `state` object (a context). */
interface StateHolder {
  state?: unknown;
}

/** Makes a {@link StateSlot} for `ctx.state[key]`: one per key, created once at module level by its owner. */
export function defineStateSlot<T>(key: string): StateSlot<T> {
  const stateOf = (holder: object) => (holder as StateHolder).state as Record<string, T | undefined> | undefined;
  return Object.freeze({
    name: key,
    key,
    get: (holder: object) => stateOf(holder)?.[key],
    set: (holder: object, value: T | undefined) => {
      // Assigned, never deleted (undefined clears): a delete turns the state object into a slow dictionary.
      const state = stateOf(holder);
      if (state) state[key] = value;
    },
  });
}
