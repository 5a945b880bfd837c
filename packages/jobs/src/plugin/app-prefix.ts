/**
 * The default Redis key prefix of an app's queue: `fwkit-<name>`, from the app's package.json, so
 * two apps on one Redis database (each with its own workers) never take each other's jobs. A name
 * is reduced to the letters, digits and `_ . -` a prefix may hold (`@acme/shop` is `acme-shop`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The prefix of an app whose package.json has no usable name (and of the queue used alone). */
export const BASE_QUEUE_PREFIX = "fwkit";

/** `fwkit-<name>` for the app in `root`, or `fwkit` when its package.json names none. */
export function appQueuePrefix(root: string): string {
  let name: unknown;
  try {
    name = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name?: unknown }).name;
  } catch {
    return BASE_QUEUE_PREFIX;
  }
  if (typeof name !== "string") return BASE_QUEUE_PREFIX;
  const cleaned = name
    .replace(/^@/, "")
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  return cleaned === "" ? BASE_QUEUE_PREFIX : `${BASE_QUEUE_PREFIX}-${cleaned}`.slice(0, 50);
}
