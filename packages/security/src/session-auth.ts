/**
 * Sessions that end when the user's credentials change. At login the session stores a keyed hash
 * (HMAC-SHA256 with a key derived from the secret key) of the user's session fingerprint, the
 * app's `sessionFingerprint(user)` (for example the password hash, or a per-user generation it
 * bumps); each request compares it with the user as loaded now, and a session whose value no
 * longer matches is logged out. So a password change or reset ends every other session of the
 * user, in every store, signed-cookie sessions included (which cannot be listed). The value in
 * the session is keyed, so a cookie session never shows the fingerprint itself.
 */
import { createHmac } from "node:crypto";
import type { Context } from "koa";
import { keepCsrfSecret } from "./csrf.js";
import { hasRememberCookie, readRememberCookie, setRememberCookie } from "./remember.js";
import { runtimeOf, type SecurityRuntime } from "./runtime.js";
import { getSession, regenerateSession, USER_ID_KEY } from "./session.js";
import { constantTimeEqual, deriveKey } from "./signing.js";
import { currentUserSlot } from "./request-state.js";

/** Session key of the keyed hash of the user's session fingerprint. */
export const SESSION_AUTH_KEY = "$auth";

/**
 * The user's session fingerprint: `sessionFingerprint(user)`, else `rememberFingerprint(user)`
 * (the same value voids both), else `undefined` (the app gave neither: sessions never end this way).
 */
export function sessionFingerprintOf(runtime: SecurityRuntime, user: unknown): string | undefined {
  const { sessionFingerprint, rememberFingerprint } = runtime.users;
  if (sessionFingerprint) return sessionFingerprint(user);
  return rememberFingerprint ? rememberFingerprint(user) : undefined;
}

function hashes(runtime: SecurityRuntime, fingerprint: string): string[] {
  const secrets = [runtime.config.secretKey, ...runtime.config.secretKeyFallbacks];
  return secrets.map((secret) =>
    createHmac("sha256", deriveKey(secret, "session-auth")).update(fingerprint).digest("base64url"),
  );
}

/** Stores the keyed hash of `user`'s fingerprint in the session (removes it when there is none). */
export function bindSessionAuth(session: Record<string, unknown>, runtime: SecurityRuntime, user: unknown): void {
  const fingerprint = sessionFingerprintOf(runtime, user);
  if (fingerprint === undefined) delete session[SESSION_AUTH_KEY];
  else session[SESSION_AUTH_KEY] = hashes(runtime, fingerprint)[0];
}

/**
 * True when the session's stored hash matches `user` as loaded now (under the secret key or a
 * fallback key). A session without one, made before the app gave a fingerprint, does not match:
 * fail closed, the user logs in once more.
 */
export function sessionAuthMatches(session: Record<string, unknown>, runtime: SecurityRuntime, user: unknown): boolean {
  const fingerprint = sessionFingerprintOf(runtime, user);
  if (fingerprint === undefined) return true;
  const stored = session[SESSION_AUTH_KEY];
  if (typeof stored !== "string") return false;
  let matches = false;
  for (const hash of hashes(runtime, fingerprint)) if (constantTimeEqual(hash, stored)) matches = true;
  return matches;
}

/**
 * Keeps the current session logged in after the current user's fingerprint changed (a new
 * password): the session gets a new id and the new hash, so every other session of the user (and
 * any copy of this one's old cookie) is logged out on its next request. A remember-me cookie this
 * request carries for the user is made again for the new fingerprint; the others stop working.
 * `user` is the user as stored now (with the new password hash). The CSRF token stays valid.
 */
export async function updateSessionAuth(ctx: Context, user: unknown): Promise<void> {
  const runtime = runtimeOf(ctx, "updateSessionAuth()");
  const session = getSession(ctx, "updateSessionAuth()");
  if (typeof session[USER_ID_KEY] !== "string") return;
  await keepCsrfSecret(ctx, () => regenerateSession(ctx));
  bindSessionAuth(session, runtime, user);
  currentUserSlot.set(ctx, user);
  const remembered = hasRememberCookie(ctx, runtime.config)
    ? readRememberCookie(ctx, runtime.config, runtime.remember)
    : undefined;
  if (remembered && remembered.userId === session[USER_ID_KEY]) {
    setRememberCookie(ctx, runtime.config, runtime.remember, remembered.userId, rememberFingerprintOf(runtime, user));
  }
}

/** The fingerprint a remember-me cookie carries: `rememberFingerprint(user)`, else the session fingerprint. */
export function rememberFingerprintOf(runtime: SecurityRuntime, user: unknown): string | undefined {
  const { rememberFingerprint } = runtime.users;
  return rememberFingerprint ? rememberFingerprint(user) : sessionFingerprintOf(runtime, user);
}
