/**
 * `verifyCurrentPassword`: the check of a logged-in user's current password on an account page
 * (change the password or the email), under the same failed-login limits as logging in, per
 * account: a stolen session cannot guess the password without limit.
 */
import type { Context } from "koa";
import { E_LOGIN_REQUIRED } from "./errors.js";
import { verifyUserPassword } from "./login.js";
import { accountSubject } from "./login-limit.js";
import { runtimeOf } from "./runtime.js";
import { currentUserSlot } from "./request-state.js";

/**
 * Verifies `password` against `stored`, the current user's hash. Each check counts against the
 * user's failed-login limit (shared with the login form) before the hash is verified; over the
 * limit it throws 429 with `Retry-After`, even for the right password. A match clears the
 * account's failures. Throws 401 when nobody is logged in.
 */
export async function verifyCurrentPassword(
  ctx: Context,
  password: unknown,
  stored: string | null | undefined,
): Promise<boolean> {
  const runtime = runtimeOf(ctx, "verifyCurrentPassword()");
  const user = currentUserSlot.get(ctx) as { id?: unknown } | null | undefined;
  if (user === null || user === undefined) throw new E_LOGIN_REQUIRED(runtime.config.loginUrl);
  const subject = accountSubject(String(runtime.users.userId ? runtime.users.userId(user) : user.id));
  const address = ctx.ip || "unknown";
  await runtime.limiter.attempt(subject, address);
  const matches = await verifyUserPassword(ctx, password, stored);
  if (matches) await runtime.limiter.succeed(subject, address);
  return matches;
}
