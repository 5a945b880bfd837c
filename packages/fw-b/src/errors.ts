/**
 * Errors raised by fw-b. Start-up ones say how to fix the app; request-time ones are 500s whose
 * log names what the developer must change (clients only see "Internal Server Error").
 */
import { createError } from "routing-kernel";

/** `@navTitle` got no usable title or options. */
export const E_INVALID_NAV_TITLE = createError(
  "E_INVALID_NAV_TITLE",
  500,
  (where: string, reason: string) => `@navTitle on ${where} is invalid: ${reason}.`,
);

/** A menu entry points at a route that a plain link cannot reach (needs parameters, or no GET). */
export const E_NAV_UNREACHABLE = createError(
  "E_NAV_UNREACHABLE",
  500,
  (handler: string, reason: string) =>
    `@navTitle on ${handler} cannot become a menu link: ${reason}. Put @navTitle on a GET method without required parameters.`,
);

/** A template exists but cannot be compiled or rendered. */
export const E_TEMPLATE_FAILED = createError(
  "E_TEMPLATE_FAILED",
  500,
  (path: string, reason: string) => `The template ${path} failed: ${reason}`,
);

/** The `contrib` config key is malformed, or asks for modules that need another one. */
export const E_CONTRIB_CONFIG = createError(
  "E_CONTRIB_CONFIG",
  500,
  (key: string, reason: string) => `The config key "${key}" is invalid: ${reason}.`,
);

/** A contrib view or helper ran in an app that fw-b's plugin did not set up. */
export const E_CONTRIB_NOT_SET_UP = createError(
  "E_CONTRIB_NOT_SET_UP",
  500,
  (what: string) => `${what} needs the fw-b plugin; build the app with fw-b's createApp/defineApp.`,
);

/** A contrib module that keeps state between requests (OAuth sign-in, the captcha) found no session. */
export const E_CONTRIB_SESSION_MISSING = createError(
  "E_CONTRIB_SESSION_MISSING",
  500,
  (what: string) => `${what} needs a session: keep the security battery on (batteries.security).`,
);

/** A contrib module's tables are missing: its migrations have not run. */
export const E_CONTRIB_NOT_MIGRATED = createError(
  "E_CONTRIB_NOT_MIGRATED",
  500,
  (table: string) =>
    `The table ${table} does not exist. Run \`fw-b :migrate\` (or set autoMigrate: true) before starting the app.`,
);

/** A route needs a role (`@admin`, `@requireRole`) but no user system knows roles. */
export const E_ROLE_WITHOUT_AUTH = createError(
  "E_ROLE_WITHOUT_AUTH",
  500,
  (route: string) =>
    `${route} requires a role (@admin or @requireRole), but the app has no users: enable contrib.auth in config (or pass auth.loadUser to defineApp with users that have a role).`,
);

/** The site is switched to maintenance (the maintenance page answers with 503 and Retry-After). */
export const E_MAINTENANCE = createError(
  "E_MAINTENANCE",
  503,
  () => "The site is down for maintenance. Please try again later.",
);

/** `fw-b :maintenance` got something other than on or off. */
export const E_MAINTENANCE_ARGUMENT = createError(
  "E_MAINTENANCE_ARGUMENT",
  500,
  (value: string) => `fw-b :maintenance takes "on" or "off", not ${JSON.stringify(value)}.`,
);

/** An OAuth sign-in failed: the provider refused, the state did not match, or its answer was unusable. */
export const E_OAUTH_FAILED = createError(
  "E_OAUTH_FAILED",
  400,
  (provider: string, reason: string) => `Signing in with ${provider} failed: ${reason}. Try again from the login page.`,
);

/**
 * An OAuth provider cannot be reached or answered with a server error: not the visitor's fault, so
 * not a 400. Its message is shown (the page says the provider is unavailable and what to do).
 */
export const E_OAUTH_UNAVAILABLE = createError(
  "E_OAUTH_UNAVAILABLE",
  503,
  (provider: string, reason: string) =>
    `Signing in with ${provider} is not possible right now: ${reason}. Try again later, or log in with your password.`,
);
Object.defineProperty(E_OAUTH_UNAVAILABLE.prototype, "expose", { value: true });

/** `fw-b :user create|promote` cannot do what was asked (taken name, unknown role or account, bad input). */
export const E_USER_COMMAND = createError("E_USER_COMMAND", 500, (reason: string) => `fw-b :user: ${reason}.`);

/**
 * A contrib module that is on needs an optional package that is not installed (or fails to load):
 * `svg-captcha` for the built-in captcha, `openid-client` for OAuth sign-in. Checked at start-up.
 */
export const E_CONTRIB_DRIVER_MISSING = createError(
  "E_CONTRIB_DRIVER_MISSING",
  500,
  (user: string, name: string, reason: string) =>
    `The ${user} needs the package "${name}", which could not be loaded (${reason}). Install it (npm install ${name}) or switch the module off.`,
);
