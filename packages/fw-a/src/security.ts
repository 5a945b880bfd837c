import {
  attemptLogin,
  bearerAuth,
  cors,
  csrfExempt,
  csrfToken,
  currentUser,
  hashPassword,
  idempotent,
  issueToken,
  login,
  loginRequired,
  logout,
  needsRehash,
  rateLimit,
  updateSessionAuth,
  verifyCurrentPassword,
  verifyPassword,
} from "@fwkit/security";
import { verifyUserPassword } from "@fwkit/security/plugin";

/**
 * Framework A's security helpers. Decorators: `@security.csrfExempt` (no CSRF check for this view),
 * `@security.loginRequired` (HTML views redirect to the login page, JSON views answer 401),
 * `@security.bearerAuth` (a valid JWT is required; claims on `this.claims`), `@security.cors(options)`,
 * `@security.rateLimit({ max, window, by })` (429 with Retry-After once a client used up `max` in `window`),
 * `@security.idempotent` (a POST/PUT/PATCH/DELETE carrying an `Idempotency-Key` runs once; a repeat gets the first answer).
 * Functions take the Koa context: `await security.login(this.ctx, user)`,
 * `await security.issueToken(this.ctx, { sub: "42" })` (a JWT signed with the app's key).
 * `security.hashPassword(pw)` and `security.needsRehash(hash)` use the app's resolved password
 * config (`passwordAlgorithm`, `bcryptCost`...); `security.attemptLogin(ctx, identifier, { find,
 * password, passwordHash })` limits failures per account and verifies a dummy hash of the same cost
 * when no account matches; `security.verifyCurrentPassword(ctx, password, hash)` checks a logged-in
 * user's password under the same per-account limit.
 */
export const security = Object.freeze({
  csrfExempt,
  loginRequired,
  bearerAuth,
  cors,
  rateLimit,
  idempotent,
  login,
  logout,
  updateSessionAuth,
  attemptLogin,
  currentUser,
  csrfToken,
  hashPassword,
  verifyPassword,
  verifyUserPassword,
  verifyCurrentPassword,
  needsRehash,
  issueToken,
});
