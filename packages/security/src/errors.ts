/**
 * Errors raised by the security package. Each has a stable code; the client-facing ones carry a
 * 4xx status (or 503) and are marked `expose` so that even a bare Koa app shows their message,
 * and some carry `headers` (`Retry-After`, `WWW-Authenticate`) that Koa and koa-host both apply.
 */
import { createError, type CodedErrorClass } from "routing-kernel";

/** Defines a coded error whose message may be shown to the client. */
function exposed<Args extends unknown[]>(
  code: string,
  status: number,
  format: (...args: Args) => string,
): CodedErrorClass<Args> {
  const ErrorClass = createError(code, status, format);
  Object.defineProperty(ErrorClass.prototype, "expose", { value: true });
  return ErrorClass;
}

/** Attaches response headers to an error (Koa's and koa-host's error handlers set them). */
export function withHeaders<E extends Error>(error: E, headers: Record<string, string>): E {
  Object.defineProperty(error, "headers", { value: headers, enumerable: false });
  return error;
}

/** The session store did not answer; the request cannot be served until it is back. */
export const E_SESSION_STORE_UNAVAILABLE = exposed(
  "E_SESSION_STORE_UNAVAILABLE",
  503,
  (kind: string) =>
    `Sessions are temporarily unavailable: the ${kind} session store cannot be reached. Try again in a moment.`,
);

/** `sessionUrl` (SESSION_URL) is malformed or names an unsupported store. */
export const E_SESSION_URL_INVALID = createError(
  "E_SESSION_URL_INVALID",
  500,
  (url: string, reason: string) =>
    `The session URL ${JSON.stringify(url)} is invalid: ${reason}. Use "cookie", "memory:", "redis://host:port/db", "postgres://...", "mysql://...", "sqlite:path/to/file.db", "s3://bucket/prefix?endpoint=...&region=...", "gs://bucket/prefix" or "azblob://container/prefix".`,
);

/** A session function was called on a request without a session (no middleware, or destroyed). */
export const E_SESSION_NOT_CONFIGURED = createError(
  "E_SESSION_NOT_CONFIGURED",
  500,
  (what: string, destroyed: boolean) =>
    destroyed
      ? `${what} needs a session, but destroySession() ended it earlier in this request; call logout() instead to start a fresh one.`
      : `${what} needs a session, but the session middleware did not run for this request. Add securityPlugin() to the app's plugins (or sessionMiddleware() before the routes).`,
);

/** Cookie sessions hold about 4 KB; the session data no longer fits. */
export const E_SESSION_COOKIE_TOO_LARGE = createError(
  "E_SESSION_COOKIE_TOO_LARGE",
  500,
  (length: number, limit: number) =>
    `The session data takes ${length} characters in its cookie, over the ${limit} a browser keeps (it would silently drop the session). Keep less in the session, or move sessions to a server-side store with sessionUrl.`,
);

/** The plugin received a request (or a helper was called) before `setup()` ran. */
export const E_SECURITY_NOT_SET_UP = createError(
  "E_SECURITY_NOT_SET_UP",
  500,
  (what: string) => `${what} was used before securityPlugin().setup() ran; the host must call setup() at start-up.`,
);

/** No secret key to sign cookies and tokens with, in production. */
export const E_SECURITY_SECRET_KEY_MISSING = createError(
  "E_SECURITY_SECRET_KEY_MISSING",
  500,
  () =>
    "The security plugin needs a secret key to sign session cookies, CSRF tokens and JWTs. Set SECRET_KEY (a long random string) or secretKey in the app config.",
);

/** A security config value is out of range or contradicts another one. */
export const E_SECURITY_CONFIG_INVALID = createError(
  "E_SECURITY_CONFIG_INVALID",
  500,
  (key: string, reason: string) => `The security config key "${key}" is invalid: ${reason}.`,
);

/** An unsafe request carried no CSRF token. */
export const E_CSRF_TOKEN_MISSING = exposed(
  "E_CSRF_TOKEN_MISSING",
  403,
  (method: string) =>
    `${method} requests need a CSRF token: send the form field "_csrf_token" or the header "X-CSRF-Token" with the value of csrf_token() from the page. Reload the form and try again.`,
);

/** An unsafe request carried a CSRF token that does not belong to its session. */
export const E_CSRF_TOKEN_INVALID = exposed(
  "E_CSRF_TOKEN_INVALID",
  403,
  () =>
    "The CSRF token is invalid or belongs to another session (the session may have expired or you logged out). Reload the form and try again.",
);

/** A login-required view was called without a logged-in user (JSON/XML clients). */
export const E_LOGIN_REQUIRED = exposed(
  "E_LOGIN_REQUIRED",
  401,
  (loginUrl: string) => `You must log in to use this resource (log in at ${loginUrl}).`,
);

/** Too many failed logins for an account or from an address. */
export const E_TOO_MANY_LOGIN_ATTEMPTS = exposed(
  "E_TOO_MANY_LOGIN_ATTEMPTS",
  429,
  (seconds: number) => `Too many failed login attempts. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
);

/** The failed-login counter store (Redis) did not answer. */
export const E_LOGIN_LIMIT_UNAVAILABLE = exposed(
  "E_LOGIN_LIMIT_UNAVAILABLE",
  503,
  () => "Logging in is temporarily unavailable: the login-attempt store cannot be reached. Try again in a moment.",
);

/** A `@rateLimit` route was asked too often by one client (or for one key) within its window. */
export const E_TOO_MANY_REQUESTS = exposed(
  "E_TOO_MANY_REQUESTS",
  429,
  (seconds: number, message?: string) =>
    `${message ?? "Too many requests."} Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
);

/** The rate-limit counters (Redis, or the cluster primary) did not answer: the limited route is refused. */
export const E_RATE_LIMIT_UNAVAILABLE = exposed(
  "E_RATE_LIMIT_UNAVAILABLE",
  503,
  () => "This action is temporarily unavailable: the rate-limit store cannot be reached. Try again in a moment.",
);

/** `@rateLimit(options)` or the `rateLimits` config block holds a value that cannot work. */
export const E_RATE_LIMIT_INVALID = createError(
  "E_RATE_LIMIT_INVALID",
  500,
  (where: string, reason: string) => `${where} is invalid: ${reason}.`,
);

/** A bearer-auth view was called without an `Authorization: Bearer` header. */
export const E_BEARER_TOKEN_MISSING = exposed(
  "E_BEARER_TOKEN_MISSING",
  401,
  () => 'This resource needs a bearer token: send the header "Authorization: Bearer <token>".',
);

/** The bearer token is malformed, tampered with, signed by another key or with a refused algorithm. */
export const E_BEARER_TOKEN_INVALID = exposed(
  "E_BEARER_TOKEN_INVALID",
  401,
  (reason: string) => `The bearer token is invalid (${reason}). Obtain a new token.`,
);

/** The bearer token's `exp` has passed. */
export const E_BEARER_TOKEN_EXPIRED = exposed(
  "E_BEARER_TOKEN_EXPIRED",
  401,
  () => "The bearer token has expired. Obtain a new token.",
);

/** A JWT could not be signed because the configured algorithm has no private key. */
export const E_JWT_KEY_MISSING = createError(
  "E_JWT_KEY_MISSING",
  500,
  (algorithm: string, key: string) =>
    `JWT algorithm ${algorithm} needs ${key} in the config (a PEM string); set it or use HS256.`,
);

/** A password given to hashPassword is empty or longer than the algorithm accepts. */
export const E_PASSWORD_INVALID = exposed(
  "E_PASSWORD_INVALID",
  400,
  (reason: string) => `The password cannot be used: ${reason}.`,
);

/** A stored password hash is in no format this package knows. */
export const E_PASSWORD_HASH_UNKNOWN = createError(
  "E_PASSWORD_HASH_UNKNOWN",
  500,
  (prefix: string) =>
    `The stored password hash (starting ${JSON.stringify(prefix)}) is neither bcrypt ($2a$/$2b$/$2y$) nor argon2 ($argon2id$); check the column it was read from.`,
);

/** Several apps in one process hash passwords with different policies and a call gave none. */
export const E_PASSWORD_POLICY_AMBIGUOUS = createError(
  "E_PASSWORD_POLICY_AMBIGUOUS",
  500,
  (apps: number) =>
    `${apps} apps in this process use different password policies, and hashPassword()/needsRehash() was called outside a request without one; call it inside a request, or use that app's securityPlugin().hashPassword().`,
);

/** A package the configured security features need (bcrypt, argon2, jose, @koa/cors) could not be loaded. */
export const E_SECURITY_DRIVER_MISSING = createError(
  "E_SECURITY_DRIVER_MISSING",
  500,
  (user: string, name: string, reason: string) =>
    `The ${user} needs the package "${name}", which could not be loaded (${reason}). Install it (npm install ${name}) or configure another algorithm.`,
);

/** An `Idempotency-Key` (header or `_idempotency_key` field) that is empty, too long or has other characters. */
export const E_IDEMPOTENCY_KEY_INVALID = exposed(
  "E_IDEMPOTENCY_KEY_INVALID",
  400,
  (max: number) =>
    `The Idempotency-Key is not valid: send 1 to ${max} characters among A-Z, a-z, 0-9 and - _ . : (a random UUID fits).`,
);

/** The key was used before for another request (method, path or body differ). */
export const E_IDEMPOTENCY_KEY_REUSED = exposed(
  "E_IDEMPOTENCY_KEY_REUSED",
  422,
  () =>
    "This Idempotency-Key was already used for a different request (another method, path or body). Send a new key with each new request; repeat a key only to retry the very same request.",
);

/** A request with the same key started and has not answered yet. */
export const E_IDEMPOTENCY_KEY_IN_USE = exposed(
  "E_IDEMPOTENCY_KEY_IN_USE",
  409,
  () =>
    "A request with this Idempotency-Key has started and has not answered yet. Retry in a moment to get its answer. If it never comes, the first attempt stopped before answering and may have been applied: check before you send it again with a new key.",
);

/** The store of idempotency keys did not answer: the request is refused rather than maybe run twice. */
export const E_IDEMPOTENCY_STORE_UNAVAILABLE = exposed(
  "E_IDEMPOTENCY_STORE_UNAVAILABLE",
  503,
  (kind: string) =>
    `Requests with an Idempotency-Key cannot be served right now: the ${kind} store of idempotency keys cannot be reached. Try again in a moment.`,
);
