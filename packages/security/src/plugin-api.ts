/**
 * @module @fwkit/security/plugin
 * What plugin authors and the sibling packages (the frameworks, the batteries) build on: not the
 * API of an app. Apps import `@fwkit/security`; this subpath may change in a minor release.
 */
export { bearerToken, BEARER_AUTH_TAG, jwtClaims } from "./bearer.js";
export {
  CORS_KEYS,
  resolveSecurityConfig,
  SECURITY_CONFIG_KEYS,
  SECURITY_DEFAULTS,
  validateCors,
  type SecurityConfig,
} from "./config.js";
export { securityConfigSchema } from "./config-schema.js";
export { CORS_TAG } from "./cors.js";
export {
  csrfTokenMatches,
  CSRF_EXEMPT_TAG,
  CSRF_FIELD,
  CSRF_HEADER,
  isBearerOnly,
  isSafeMethod,
  sentCsrfToken,
  verifyCsrf,
} from "./csrf.js";
export { resolveJwtKeys, type JwtKeys } from "./jwt.js";
export { claimOnce } from "./claim-once.js";
export { verifyUserPassword } from "./login.js";
export {
  accountSubject,
  clientAddressKey,
  identifierSubject,
  LoginLimiter,
  MemoryAttemptCounter,
  normaliseIdentifier,
  type AttemptCount,
  type AttemptCounter,
  type CounterLimit,
  type LoginLimits,
  type TakeResult,
} from "./login-limit.js";
export { loginRedirectUrl, LOGIN_REQUIRED_TAG, rejectsHtml, safeNextUrl } from "./login-required.js";
export {
  parseRateLimit,
  RATE_LIMIT_TAG_PREFIX,
  rateLimitMiddleware,
  routeRateLimits,
  type RateLimitOverride,
  type RateLimitRule,
} from "./rate-limit.js";
export { ARGON2_MAX_BYTES, BCRYPT_MAX_BYTES, dummyHash, hashAlgorithm } from "./passwords.js";
export { currentPasswordPolicy, passwordPolicyOf } from "./password-policy.js";
export { attachRuntime, runtimeOf, type CsrfCookieSettings, type SecurityRuntime, type UserHooks } from "./runtime.js";
export {
  CSRF_SECRET_KEY,
  hasSession,
  MAX_COOKIE_LENGTH,
  newSessionId,
  sessionCookieName,
  sessionId,
  USER_ID_KEY,
} from "./session.js";
export { parseSessionUrl, redactUrl, type SessionUrl } from "./session-url.js";
export { constantTimeEqual, createSigner, deriveKey, type Signer } from "./signing.js";
export { createSessionStore, type CreateSessionStoreOptions } from "./stores/create.js";
export { parseSessionData, type SessionData, type SessionStore } from "./stores/store.js";
