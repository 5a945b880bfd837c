import { checkOptionKeys, routePath, setTag } from "routing-kernel";
import { kebabCase } from "routing-kernel/plugin";
import { ADMIN_TAG, ROLE_TAG, type RoleRequirement } from "../roles.js";

/** Options of `@admin(...)`. */
export interface AdminOptions {
  /** The title in the admin menu (default: the class name in words). */
  readonly title?: string;
  /** A bootstrap-icons name for the menu (default `grid`). */
  readonly icon?: string;
  /** The minimum role (default: the admin role of the config). */
  readonly role?: string;
}

/** What `@admin` records under {@link ADMIN_TAG}. */
export interface AdminTag {
  readonly title: string;
  readonly icon: string;
}

function words(name: string): string {
  const spaced = kebabCase(name).replace(/-/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function decorate(options: AdminOptions, value: unknown, context: ClassDecoratorContext): void {
  if (context.kind !== "class") throw new TypeError("@admin goes on a view class");
  const name = String(context.name);
  routePath("admin", `/admin/${kebabCase(name)}`)(value, context);
  setTag(
    "admin",
    ADMIN_TAG,
    Object.freeze({ title: options.title ?? words(name), icon: options.icon ?? "grid" }) satisfies AdminTag,
  )(value, context);
  setTag(
    "admin",
    ROLE_TAG,
    Object.freeze(options.role ? { role: options.role } : {}) satisfies RoleRequirement,
  )(value, context);
}

/**
 * Puts a view class in the admin area: served under `/admin/<class-kebab>` (`Catalog` ->
 * `/admin/catalog`), listed in the admin menu, and only for logged-in users with the admin role
 * (anonymous HTML visitors go to the login page, JSON clients get 401, other users 403). Bare
 * (`@admin`) or with options (`@admin({ title: "Tea catalogue", icon: "cup" })`).
 */
export function admin(value: unknown, context: ClassDecoratorContext): void;
export function admin(options?: AdminOptions): (value: unknown, context: ClassDecoratorContext) => void;
export function admin(
  valueOrOptions?: unknown,
  context?: ClassDecoratorContext,
): void | ((value: unknown, context: ClassDecoratorContext) => void) {
  if (context && typeof context === "object" && "kind" in context) return decorate({}, valueOrOptions, context);
  const options = (valueOrOptions ?? {}) as AdminOptions;
  checkOptionKeys("@admin(options)", options, ["title", "icon", "role"]);
  return (value, ctx) => decorate(options, value, ctx);
}
