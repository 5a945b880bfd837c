/**
 * The login manager: who is logged in (`currentUserSlot`, `ctx.state.currentUser` for apps, loaded each request through the
 * app's `loadUser`), `login` (new session id, optional remember-me cookie), `logout`, and
 * `attemptLogin`, which runs a credential check under the failed-login limits.
 */
import type { Context, Middleware } from "koa";
import { E_SECURITY_CONFIG_INVALID } from "./errors.js";
import { accountSubject, identifierSubject, normaliseIdentifier } from "./login-limit.js";
import { verifyPassword } from "./passwords.js";
import { forgetCsrfCookie, keepCsrfSecret } from "./csrf.js";
import {
  clearRememberCookie,
  fingerprintDigest,
  hasRememberCookie,
  readRememberCookie,
  setRememberCookie,
} from "./remember.js";
import { runtimeOf, type SecurityRuntime } from "./runtime.js";
import { getSession, mayCarryCookie, regenerateSession, USER_ID_KEY } from "./session.js";
import { bindSessionAuth, rememberFingerprintOf, sessionAuthMatches } from "./session-auth.js";
import type { CurrentUser } from "./user-type.js";
import { currentUserSlot } from "./request-state.js";

/** Options of {@link login}. */
export interface LoginOptions {
  /** Also set the long-lived remember-me cookie. */
  readonly remember?: boolean;
}

/** The logged-in user of this request, if any (typed by the app's {@link CurrentUser} declaration). */
export function currentUser<User = CurrentUser>(ctx: Context): User | undefined {
  return (currentUserSlot.get(ctx) as User | undefined) ?? undefined;
}

function idOf(runtime: SecurityRuntime, user: unknown): string {
  // Numbers from the app's userId() are kept as strings, the form the session and loadUser() use.
  if (runtime.users.userId) return String(runtime.users.userId(user));
  const id = (user as { id?: unknown } | null)?.id;
  if (typeof id === "string" || typeof id === "number" || typeof id === "bigint") return String(id);
  throw new E_SECURITY_CONFIG_INVALID(
    "userId",
    "the user has no string or number `id`; pass userId(user) to securityPlugin()",
  );
}

/**
 * Logs `user` in: the session gets a new id (so an id planted before login is worthless), stores
 * the user's id, the keyed hash of the user's session fingerprint and the visitor's CSRF secret
 * (forms rendered before login stay valid); with `remember`, the remember-me cookie is set.
 */
export async function login(ctx: Context, user: unknown, options: LoginOptions = {}): Promise<void> {
  const runtime = runtimeOf(ctx, "login()");
  const id = idOf(runtime, user);
  const session = getSession(ctx, "login()");
  session[USER_ID_KEY] = id;
  bindSessionAuth(session, runtime, user);
  await keepCsrfSecret(ctx, () => regenerateSession(ctx));
  currentUserSlot.set(ctx, user);
  if (options.remember) {
    setRememberCookie(ctx, runtime.config, runtime.remember, id, rememberFingerprintOf(runtime, user));
  } else if (hasRememberCookie(ctx, runtime.config)) {
    clearRememberCookie(ctx, runtime.config);
  }
  await runtime.users.onLogin?.(user, ctx, id);
}

/** Logs out: the session's data is dropped, the old id destroyed, the remember-me cookie cleared. */
export async function logout(ctx: Context): Promise<void> {
  const runtime = runtimeOf(ctx, "logout()");
  const previous = getSession(ctx, "logout()")[USER_ID_KEY];
  await endSession(ctx, runtime);
  await runtime.users.onLogout?.(typeof previous === "string" ? previous : undefined, ctx);
}

/** Drops the session's data and gives it a new id (the old one is destroyed); clears the CSRF and remember-me cookies. */
async function endSession(ctx: Context, runtime: SecurityRuntime): Promise<void> {
  const session = getSession(ctx, "logout()");
  for (const key of Object.keys(session)) if (key !== "isNew" && !key.startsWith("_")) delete session[key];
  await regenerateSession(ctx);
  forgetCsrfCookie(ctx);
  currentUserSlot.set(ctx, undefined);
  if (hasRememberCookie(ctx, runtime.config)) clearRememberCookie(ctx, runtime.config);
}

/**
 * Loads the current user onto `ctx.state.currentUser`: from the session's user id, or else from a
 * valid remember-me cookie (which logs the user in on a new session). A session whose user no
 * longer exists (or `loadUser` refuses, a disabled account), or whose session fingerprint changed
 * since login (a new password), is ended. Does nothing when the app gave no `loadUser`.
 */
export function currentUserMiddleware(): Middleware {
  return (ctx, next) => {
    const loading = loadCurrentUserStep(ctx);
    return loading ? loading.then(() => next()) : next();
  };
}

/**
 * {@link currentUserMiddleware}'s work as a step the security plugin runs inside its layer: a
 * promise while a user is being loaded, `undefined` when there is none to load.
 */
export function loadCurrentUserStep(ctx: Context): Promise<void> | undefined {
  const runtime = runtimeOf(ctx, "The current-user middleware");
  const loadUser = runtime.users.loadUser;
  currentUserSlot.set(ctx, undefined);
  // A request without the session or remember-me cookie has a new, empty session: there is no
  // user to load, and the session is not even made (a visitor's first GET costs nothing here).
  const cookies = ctx.headers.cookie;
  const { sessionCookie, rememberCookie } = runtime.config;
  if (!loadUser || (!mayCarryCookie(cookies, sessionCookie) && !mayCarryCookie(cookies, rememberCookie)))
    return undefined;
  return loadCurrentUser(ctx, runtime, loadUser);
}

async function loadCurrentUser(
  ctx: Context,
  runtime: SecurityRuntime,
  loadUser: NonNullable<SecurityRuntime["users"]["loadUser"]>,
): Promise<void> {
  const session = getSession(ctx, "The current-user middleware");
  const id = session[USER_ID_KEY];
  if (typeof id === "string") {
    const user = await loadUser(id, ctx);
    if (user !== null && user !== undefined && sessionAuthMatches(session, runtime, user))
      currentUserSlot.set(ctx, user);
    // Stolen or not, a session that outlived its user's credentials holds nothing more.
    else await endSession(ctx, runtime);
  } else if (hasRememberCookie(ctx, runtime.config)) {
    await loginFromRememberCookie(ctx, runtime, loadUser);
  }
}

async function loginFromRememberCookie(
  ctx: Context,
  runtime: SecurityRuntime,
  loadUser: NonNullable<SecurityRuntime["users"]["loadUser"]>,
): Promise<void> {
  const token = readRememberCookie(ctx, runtime.config, runtime.remember);
  const user = token ? await loadUser(token.userId, ctx) : undefined;
  const fingerprint = user !== null && user !== undefined ? rememberFingerprintOf(runtime, user) : undefined;
  const matches =
    token !== undefined &&
    (fingerprint === undefined
      ? token.fingerprint === undefined
      : token.fingerprint === fingerprintDigest(fingerprint));
  if (user === null || user === undefined || !matches) {
    clearRememberCookie(ctx, runtime.config);
    return;
  }
  // A new session for the remembered user; the remember-me cookie keeps its original expiry.
  const session = getSession(ctx, "remember-me");
  session[USER_ID_KEY] = idOf(runtime, user);
  bindSessionAuth(session, runtime, user);
  await keepCsrfSecret(ctx, () => regenerateSession(ctx));
  currentUserSlot.set(ctx, user);
}

type Awaitable<T> = T | Promise<T>;

/**
 * The credential check of {@link attemptLogin} in its object form: the manager finds the account
 * first, so the limits count per account whatever name was typed, then verifies the password
 * itself, against the start-up dummy hash when there is no account or no password, so every path
 * costs the same hashing work.
 */
export interface CredentialCheck<User> {
  /** The account `identifier` (trimmed, NFKC, lower-case) names, by username or email; nothing when none. */
  find(identifier: string): Awaitable<User | null | undefined>;
  /** The password typed. */
  readonly password: unknown;
  /** The account's stored hash; null/undefined when it has none (an OAuth-only account). */
  passwordHash(user: User): string | null | undefined;
  /**
   * Called only after the password matched: false refuses the login and counts a failure (a
   * deactivated or unconfirmed account; the app says why from its own state).
   */
  allow?(user: User): Awaitable<boolean>;
}

/**
 * Verifies `password` against `stored`, or against the app's dummy hash (same algorithm and cost)
 * when there is no stored hash: true only for a real match, and the same work either way.
 */
export async function verifyUserPassword(
  ctx: Context,
  password: unknown,
  stored: string | null | undefined,
): Promise<boolean> {
  const runtime = runtimeOf(ctx, "verifyUserPassword()");
  const matches = await verifyPassword(password as string, stored || runtime.dummyHash);
  return matches && Boolean(stored);
}

/**
 * Runs one login attempt under the failed-login limits: throws 429 (`Retry-After`) when the
 * account or the client address has too many recent failures, before any password is checked.
 *
 * With a {@link CredentialCheck} (recommended), the account is found first and the limit counts
 * per resolved account (its username and email share one counter), else per normalised
 * identifier; the password is verified by the manager. With a function, `check` does the whole
 * credential check and the limit counts per normalised identifier only.
 *
 * A user is logged in and returned; a failure is counted and `undefined` returned, for the app
 * to show its own message.
 */
export async function attemptLogin<User>(
  ctx: Context,
  identifier: unknown,
  check: CredentialCheck<User>,
  options?: LoginOptions,
): Promise<User | undefined>;
export async function attemptLogin<User>(
  ctx: Context,
  identifier: unknown,
  check: () => Awaitable<User | null | undefined | false>,
  options?: LoginOptions,
): Promise<User | undefined>;
export async function attemptLogin<User>(
  ctx: Context,
  identifier: unknown,
  check: CredentialCheck<User> | (() => Awaitable<User | null | undefined | false>),
  options: LoginOptions = {},
): Promise<User | undefined> {
  const runtime = runtimeOf(ctx, "attemptLogin()");
  const address = ctx.ip || "unknown";
  let subject = identifierSubject(identifier);
  let verify: () => Promise<User | undefined>;
  if (typeof check === "function") {
    verify = async () => (await check()) || undefined;
  } else {
    const normalised = normaliseIdentifier(identifier);
    const found =
      typeof identifier === "string" && normalised !== "" ? ((await check.find(normalised)) ?? undefined) : undefined;
    if (found !== undefined) subject = accountSubject(idOf(runtime, found));
    verify = async () => {
      const matches = await verifyUserPassword(
        ctx,
        check.password,
        found === undefined ? undefined : check.passwordHash(found),
      );
      if (!matches || found === undefined) return undefined;
      return check.allow && !(await check.allow(found)) ? undefined : found;
    };
  }
  // Counted before the password is checked, in one atomic step: a burst of parallel attempts
  // cannot all pass the limit; a failure stays counted, a success is taken back.
  await runtime.limiter.attempt(subject, address);
  const user = await verify();
  if (user === undefined || user === null) return undefined;
  await runtime.limiter.succeed(subject, address);
  await login(ctx, user, options);
  return user;
}
