/**
 * The remember-me cookie: a separate long-lived cookie that logs the user back in when their
 * session has ended. Its value (user id, expiry, optional fingerprint digest) is signed with a
 * key of its own, so it cannot be forged or confused with a session cookie.
 */
import { createHash } from "node:crypto";
import type { Context } from "koa";
import type { SecurityConfig } from "./config.js";
import type { Signer } from "./signing.js";

/** What a valid remember-me cookie says. */
export interface RememberToken {
  readonly userId: string;
  readonly expiresAt: number;
  /** Digest of the user's fingerprint at login, when the app gives one. */
  readonly fingerprint: string | undefined;
}

/** Digest of a fingerprint, so the cookie never carries the value itself (it may be a hash). */
export function fingerprintDigest(value: string): string {
  return createHash("sha256").update(value).digest("base64url").slice(0, 22);
}

/** Cookie flags shared by the remember-me cookie. */
function flags(config: SecurityConfig): {
  httpOnly: true;
  sameSite: "lax";
  secure: boolean;
  overwrite: true;
  path: string;
} {
  return { httpOnly: true, sameSite: "lax", secure: config.cookieSecure, overwrite: true, path: "/" };
}

/** Sets the remember-me cookie for `userId`. */
export function setRememberCookie(
  ctx: Context,
  config: SecurityConfig,
  signer: Signer,
  userId: string,
  fingerprint?: string,
): void {
  const expiresAt = Date.now() + config.rememberMaxAge * 1000;
  const payload = JSON.stringify([
    userId,
    expiresAt,
    fingerprint === undefined ? null : fingerprintDigest(fingerprint),
  ]);
  const value = signer.sign(Buffer.from(payload).toString("base64url"));
  ctx.cookies.set(config.rememberCookie, value, { ...flags(config), maxAge: config.rememberMaxAge * 1000 });
}

/** Clears the remember-me cookie. */
export function clearRememberCookie(ctx: Context, config: SecurityConfig): void {
  ctx.cookies.set(config.rememberCookie, "", flags(config));
}

/** Reads and verifies the remember-me cookie; `undefined` when absent, forged or expired. */
export function readRememberCookie(ctx: Context, config: SecurityConfig, signer: Signer): RememberToken | undefined {
  const raw = ctx.cookies.get(config.rememberCookie);
  if (!raw || raw.length > 1024) return undefined;
  const payload = signer.unsign(raw);
  if (payload === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value.length !== 3) return undefined;
    const [userId, expiresAt, fingerprint] = value as unknown[];
    if (typeof userId !== "string" || typeof expiresAt !== "number" || expiresAt <= Date.now()) return undefined;
    if (fingerprint !== null && typeof fingerprint !== "string") return undefined;
    return { userId, expiresAt, fingerprint: fingerprint ?? undefined };
  } catch {
    return undefined;
  }
}

/** True when the request sent a remember-me cookie at all (valid or not). */
export function hasRememberCookie(ctx: Context, config: SecurityConfig): boolean {
  return Boolean(ctx.cookies.get(config.rememberCookie));
}
