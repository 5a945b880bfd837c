import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** A `@navTitle(...)` call and the `order` it gives, if any (a number literal). */
const NAV_TITLE = /@navTitle\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g;
const ORDER = /\border\s*:\s*(-?\d+(?:\.\d+)?)/;

/** The `order` of every `@navTitle` in the app's view modules (0 for those that give none). */
export function navOrders(root: string): number[] {
  const orders: number[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(m?ts|m?js)$/.test(entry) && !/\.(test|d)\.m?ts$/.test(entry)) {
        for (const call of readFileSync(full, "utf8").matchAll(NAV_TITLE))
          orders.push(Number(ORDER.exec(call[1]!)?.[1] ?? 0));
      }
    }
  };
  walk(join(root, "views"));
  return orders;
}

/**
 * The menu position `:addview` gives a new view when none is asked for: after every entry the
 * app's views already have (the scaffold's Home is 0), in steps of 10 so one can be put between.
 */
export function nextNavOrder(root: string): number {
  const orders = navOrders(root);
  return orders.length === 0 ? 0 : Math.floor(Math.max(0, ...orders) / 10) * 10 + 10;
}
