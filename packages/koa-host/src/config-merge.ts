/**
 * How config layers combine (defaults, `lib/config.ts`, its environment section, environment
 * variables, code overrides): plain objects merge key by key at every depth, so an environment
 * section that sets one key of a block keeps the block's other keys; arrays and every other value
 * replace what was there. A key set to `undefined` leaves the value below it.
 */
import { isPlainObject } from "routing-kernel/plugin";

/** Merges config layers, later ones winning, deeply for plain objects only (arrays are replaced). */
export function mergeConfig(
  ...layers: ReadonlyArray<Readonly<Record<string, unknown>> | undefined>
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) if (layer) mergeInto(merged, layer);
  return merged;
}

function mergeInto(target: Record<string, unknown>, source: Readonly<Record<string, unknown>>): void {
  for (const [key, value] of Object.entries(source)) {
    // Own data keys only: a "__proto__" key from JSON must not reach the prototype.
    if (value === undefined || key === "__proto__") continue;
    const current = target[key];
    if (isPlainObject(value)) {
      const into: Record<string, unknown> = isPlainObject(current) ? { ...current } : {};
      mergeInto(into, value);
      target[key] = into;
    } else {
      target[key] = value;
    }
  }
}
