import type { Middleware } from "koa";
import { bareOrCalled, setTag, type ViewDecorator } from "routing-kernel";

/** Role names and their levels: a role reaches everything that asks for its level or lower. */
export const DEFAULT_ROLES: Readonly<Record<string, number>> = Object.freeze({
  member: 10,
  editor: 20,
  admin: 30,
  superadmin: 40,
});

/** The route tag recording the minimum role (`{ role }`; no role means the admin role of the config). */
export const ROLE_TAG = "fwb.requireRole";

/** The route tag of `@admin` classes (their admin-menu title). */
export const ADMIN_TAG = "fwb.admin";

/** What {@link ROLE_TAG} holds. */
export interface RoleRequirement {
  /** The minimum role; undefined means the configured admin role. */
  readonly role?: string;
}

/**
 * Restricts a view class or method to logged-in users with at least `role` (by level): an
 * anonymous HTML visitor is sent to the login page, a JSON client gets 401, a user whose role is
 * too low gets 403.
 */
export function requireRole(role: string): ViewDecorator {
  if (typeof role !== "string" || role === "")
    throw new TypeError('@requireRole(role) needs a role name such as "editor"');
  return setTag("requireRole", ROLE_TAG, Object.freeze({ role }) satisfies RoleRequirement);
}

/** `@requireAdmin`: the admin role of the config (bare or called). */
export const requireAdmin: ViewDecorator & (() => ViewDecorator) = bareOrCalled(
  () => setTag("requireAdmin", ROLE_TAG, Object.freeze({}) satisfies RoleRequirement),
  "requireAdmin",
);

/** The level of a role name (unknown roles and missing users rank below every role). */
export function roleLevel(roles: Readonly<Record<string, number>>, role: unknown): number {
  return typeof role === "string" && Object.hasOwn(roles, role) ? roles[role]! : Number.NEGATIVE_INFINITY;
}

/** A role check as middleware, decided per route at start-up (see the contrib plugin). */
export type RoleMiddleware = (requirement: RoleRequirement, dataRoute: boolean) => Middleware;
