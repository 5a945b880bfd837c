/**
 * What the plugin resolved at start-up, reachable from any request: the functions that take only
 * `ctx` (`login`, `logout`, `attemptLogin`, `csrfToken`...) find the app's settings here.
 */
import type { Context } from "koa";
import type { SecurityConfig } from "./config.js";
import { defineSlot } from "@fwkit/koa-host/plugin";
import { E_SECURITY_NOT_SET_UP } from "./errors.js";
import type { JwtKeys } from "./jwt.js";
import type { AttemptCounter, LoginLimiter } from "./login-limit.js";
import type { PasswordOptions } from "./passwords.js";
import type { Signer } from "./signing.js";

/** How the login manager finds and names users (the app's functions). */
export interface UserHooks<User = unknown> {
  /** Loads a user by the id `userId` gave at login; `undefined`/`null` when it no longer exists. */
  loadUser?(id: string, ctx: Context): Promise<User | null | undefined> | User | null | undefined;
  /** The id stored in the session (default: `String(user.id)`). */
  userId?(user: User): string | number;
  /**
   * A value that changes when old remember-me cookies must stop working (for example the password
   * hash, or a per-user token the app rotates); optional.
   */
  rememberFingerprint?(user: User): string;
  /**
   * A value that changes when every session of the user must end: the password hash, or a
   * per-user generation the app bumps (log out everywhere). A session whose user's value changed
   * since login is logged out; `updateSessionAuth(ctx, user)` keeps the current one. Defaults to
   * `rememberFingerprint`; optional.
   */
  sessionFingerprint?(user: User): string;
  /** Called after a login (frameworks send the `user.logged_in` signal from here). */
  onLogin?(user: User, ctx: Context, id: string): void | Promise<void>;
  /** Called after a logout, with the id of the user who was logged in (if any). */
  onLogout?(id: string | undefined, ctx: Context): void | Promise<void>;
}

/** The per-app state of the security plugin. */
export interface SecurityRuntime {
  readonly config: SecurityConfig;
  readonly users: UserHooks;
  readonly limiter: LoginLimiter;
  /** The limiter's counters (memory, the node's cluster primary, or Redis), for the rate limits and `claimOnce`. */
  readonly counter: AttemptCounter;
  readonly jwt: JwtKeys;
  readonly remember: Signer;
  readonly passwords: Required<PasswordOptions>;
  /** Verified instead of a stored hash when there is none (unknown account): same algorithm and cost. */
  readonly dummyHash: string;
  /** The signed cookie that carries a visitor's CSRF secret while no session holds one. */
  readonly csrfCookie: CsrfCookieSettings;
}

/** Where the CSRF cookie goes and how it is signed. */
export interface CsrfCookieSettings {
  /** Cookie name (`__Host-` prefixed when cookies are Secure). */
  readonly name: string;
  readonly secure: boolean;
  readonly signer: Signer;
}

const securityRuntime = defineSlot<SecurityRuntime>("fw-security.runtime");

/** Makes the runtime reachable from `ctx` for the rest of the request. */
export function attachRuntime(ctx: Context, runtime: SecurityRuntime): void {
  securityRuntime.set(ctx, runtime);
}

/** The runtime of the app serving `ctx`, or `undefined` when the security plugin is not installed. */
export function findRuntime(ctx: Context): SecurityRuntime | undefined {
  return securityRuntime.get(ctx);
}

/** The runtime of the app serving `ctx`; throws when the security plugin is not installed. */
export function runtimeOf(ctx: Context, what: string): SecurityRuntime {
  const runtime = securityRuntime.get(ctx);
  if (!runtime) throw new E_SECURITY_NOT_SET_UP(what);
  return runtime;
}
