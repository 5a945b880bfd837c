/**
 * @module security
 * Sessions (signed cookies, or Redis, PostgreSQL, MySQL/MariaDB, SQLite, S3 through one URL),
 * CSRF, password hashing (bcrypt, argon2id), a login manager with remember-me and failed-login
 * limits, JWT bearer auth, CORS and security headers, for Koa apps and koa-host plugins.
 */
export { bearerAuth, bearerAuthMiddleware, bearerToken, BEARER_AUTH_TAG, issueToken, jwtClaims } from "./bearer.js";
export {
  CORS_KEYS,
  resolveSecurityConfig,
  SECURITY_CONFIG_KEYS,
  SECURITY_DEFAULTS,
  validateCors,
  type CorsSettings,
  type JwtAlgorithm,
  type PasswordAlgorithm,
  type SecurityConfig,
  type SecurityConfigInput,
} from "./config.js";
export type { SecurityAppConfig } from "./config-types.js";
export { cors, corsMiddleware, CORS_TAG } from "./cors.js";
export {
  csrfExempt,
  csrfMiddleware,
  csrfToken,
  csrfTokenMatches,
  CSRF_EXEMPT_TAG,
  CSRF_FIELD,
  CSRF_HEADER,
  isBearerOnly,
  isSafeMethod,
  sentCsrfToken,
  verifyCsrf,
} from "./csrf.js";
export * from "./errors.js";
export { securityHeadersMiddleware, type SecurityHeadersOptions } from "./headers.js";
export { resolveJwtKeys, signJwt, verifyJwt, type JwtKeys, type SignJwtOptions } from "./jwt.js";
export type { CurrentUser, UserRegistry } from "./user-type.js";
export { attemptLogin, currentUser, currentUserMiddleware, login, logout, verifyUserPassword, type CredentialCheck, type LoginOptions } from "./login.js";
export {
  accountSubject,
  clientAddressKey,
  identifierSubject,
  LoginLimiter,
  MemoryAttemptCounter,
  normaliseIdentifier,
  type AttemptCount,
  type AttemptCounter,
  type LoginLimits,
} from "./login-limit.js";
export {
  isDataRoute,
  loginRedirectUrl,
  loginRequired,
  loginRequiredMiddleware,
  LOGIN_REQUIRED_TAG,
  rejectsHtml,
  safeNextUrl,
} from "./login-required.js";
export { ARGON2_MAX_BYTES, BCRYPT_MAX_BYTES, dummyHash, hashAlgorithm, hashPassword, needsRehash, verifyPassword, type PasswordOptions } from "./passwords.js";
export { currentPasswordPolicy, passwordPolicyOf } from "./password-policy.js";
export { securityPlugin, type SecurityPlugin, type SecurityPluginOptions } from "./plugin.js";
export { attachRuntime, runtimeOf, type SecurityRuntime, type UserHooks } from "./runtime.js";
export {
  CSRF_SECRET_KEY,
  destroySession,
  getSession,
  hasSession,
  MAX_COOKIE_LENGTH,
  newSessionId,
  regenerateSession,
  sessionCookieName,
  sessionId,
  sessionMiddleware,
  USER_ID_KEY,
  type Session,
  type SessionMiddlewareOptions,
} from "./session.js";
export { parseSessionUrl, redactUrl, type SessionUrl } from "./session-url.js";
export { constantTimeEqual, createSigner, deriveKey, type Signer } from "./signing.js";
export { createSessionStore, type CreateSessionStoreOptions } from "./stores/create.js";
export { parseSessionData, type SessionData, type SessionStore } from "./stores/store.js";
