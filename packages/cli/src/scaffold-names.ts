import { kebabCase } from "routing-kernel/plugin";
import { E_INVALID_VIEW_NAME } from "./errors.js";

/**
 * The naming rules of both frameworks' generators: a new app's package name from its folder, and
 * what a view generator (`fw-a gen:view`, `fw-b :addview`) accepts and names.
 */

/** A package name from a folder name: `My Tea Shop` and `MyTeaShop` -> `my-tea-shop`; `fallback` when nothing is left. */
export function appNameOf(folder: string, fallback: string): string {
  const name = folder
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return name || fallback;
}

/** A view name: letters, digits, `-` and `_`, starting with a letter, in `/`-separated sub-folders (`admin/users`). */
const VIEW_NAME = /^[A-Za-z][A-Za-z0-9_-]*(\/[A-Za-z][A-Za-z0-9_-]*)*$/;

/** The class name a view generator gives a view name: `blog-posts` and `admin/blog_posts` -> `BlogPosts`. */
export function viewClassName(name: string): string {
  return kebabCase(name.split("/").at(-1)!)
    .split(/[-_]/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/**
 * Checks a view name given to a generator and returns its class name; `E_INVALID_VIEW_NAME`
 * (saying what a name may hold) otherwise.
 */
export function checkViewName(name: string): string {
  const className = VIEW_NAME.test(name) ? viewClassName(name) : "";
  if (!className) throw new E_INVALID_VIEW_NAME(name, true);
  return className;
}
