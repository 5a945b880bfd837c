/**
 * @module security
 * Sessions (signed cookies, or Redis, PostgreSQL, MySQL/MariaDB, SQLite, S3 through one URL),
 * CSRF, password hashing (bcrypt, argon2id), a login manager with remember-me and failed-login
 * limits, JWT bearer auth, CORS and security headers, for Koa apps and koa-host plugins.
 */
export { bearerAuth, bearerAuthMiddleware, issueToken } from "./bearer.js";
export type { CorsSettings, JwtAlgorithm, PasswordAlgorithm, SecurityConfigInput } from "./config.js";
export type { SecurityAppConfig } from "./config-schema.js";
export { cors, corsMiddleware } from "./cors.js";
export { csrfExempt, csrfMiddleware, csrfToken } from "./csrf.js";
export {
  idempotent,
  IDEMPOTENCY_FIELD,
  IDEMPOTENCY_HEADER,
  type IdempotencyConfigInput,
} from "./idempotency/index.js";
export * from "./errors.js";
export { securityHeadersMiddleware, type SecurityHeadersOptions } from "./headers.js";
export { signJwt, verifyJwt, type SignJwtOptions } from "./jwt.js";
export type { CurrentUser, UserRegistry } from "./user-type.js";
export {
  attemptLogin,
  currentUser,
  currentUserMiddleware,
  login,
  logout,
  type CredentialCheck,
  type LoginOptions,
} from "./login.js";
export { loginRequired, loginRequiredMiddleware } from "./login-required.js";
export { verifyCurrentPassword } from "./current-password.js";
export { rateLimit, type RateLimitBy, type RateLimitOptions } from "./rate-limit.js";
export { updateSessionAuth } from "./session-auth.js";
export { hashPassword, needsRehash, verifyPassword, type PasswordOptions } from "./passwords.js";
export { securityPlugin, type SecurityPlugin, type SecurityPluginOptions } from "./plugin.js";
export {
  destroySession,
  getSession,
  regenerateSession,
  sessionMiddleware,
  type Session,
  type SessionMiddlewareOptions,
} from "./session.js";
