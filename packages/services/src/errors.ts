/**
 * Errors raised by the services package. Each has a stable `code` callers branch on, the HTTP
 * status it maps to when it reaches a client, and a message that says what to do.
 */
import { createError } from "routing-kernel";

/** A service URL in config (`mailUrl`, `storageUrl`, `cacheUrl`, `signalsUrl`) cannot be used. */
export const E_SERVICE_URL_INVALID = createError(
  "E_SERVICE_URL_INVALID",
  500,
  (key: string, url: string, reason: string) => `The ${key} "${url}" cannot be used: ${reason}.`,
);

/** A services config key has the wrong shape. */
export const E_SERVICES_CONFIG_INVALID = createError(
  "E_SERVICES_CONFIG_INVALID",
  500,
  (key: string, expected: string) => `The config key "${key}" must be ${expected}.`,
);

/** A service was used before the services plugin's `setup` ran, or was not configured. */
export const E_SERVICE_NOT_CONFIGURED = createError(
  "E_SERVICE_NOT_CONFIGURED",
  500,
  (service: string, how: string) => `The ${service} is not available: ${how}.`,
);

/** Production start without a mail transport while something sends mail. */
export const E_MAIL_NOT_CONFIGURED = createError(
  "E_MAIL_NOT_CONFIGURED",
  500,
  (needs: string, missing: string) =>
    `APP_ENV is production and ${needs} sends mail, but ${missing} is not set, so every mail would be dropped. Set MAIL_URL (smtp://user:password@host:587, smtps://..., ses://region) and MAIL_FROM ("Shop <shop@example.com>") in the environment.`,
);

/** Production was given the development mail catcher (`MAIL_URL=log:`) or the tests' (`memory:`). */
export const E_MAIL_LOG_IN_PRODUCTION = createError("E_MAIL_LOG_IN_PRODUCTION", 500, (scheme = "log:") =>
  scheme === "memory:"
    ? "APP_ENV is production and MAIL_URL is memory:, the tests' mail transport: it delivers no mail. Set MAIL_URL to smtp://user:password@host:587, smtps://... or ses://region, or leave it unset when the app sends no mail."
    : `APP_ENV is production and MAIL_URL is log:, the development mail catcher: it delivers no mail and writes every one, sign-in and password-reset links included, into the log. Set MAIL_URL to smtp://user:password@host:587, smtps://... or ses://region, or leave it unset when the app sends no mail.`,
);

/** A backend a service needs (Redis, SMTP at start-up) did not answer. */
export const E_SERVICE_UNREACHABLE = createError(
  "E_SERVICE_UNREACHABLE",
  503,
  (service: string, url: string, reason: string) =>
    `The ${service} at ${url} is not reachable (${reason}). Start it or fix the URL in config.`,
);

/** A mail template name is not a safe relative name. */
export const E_MAIL_TEMPLATE_INVALID = createError(
  "E_MAIL_TEMPLATE_INVALID",
  500,
  (template: string) =>
    `The mail template name ${JSON.stringify(template)} is invalid; use names such as "welcome" or "orders/shipped".`,
);

/** A mail without a template lacks its subject or its body. */
export const E_MAIL_BODY_MISSING = createError(
  "E_MAIL_BODY_MISSING",
  500,
  (what: string) => `A mail without a template needs a subject and a body: ${what}.`,
);

/** Neither a text nor an HTML part exists for a mail template. */
export const E_MAIL_TEMPLATE_MISSING = createError(
  "E_MAIL_TEMPLATE_MISSING",
  500,
  (template: string, tried: string) => `The mail template "${template}" has no body: create at least one of ${tried}.`,
);

/** A mail has no subject: none was passed and the template has no subject part. */
export const E_MAIL_SUBJECT_MISSING = createError(
  "E_MAIL_SUBJECT_MISSING",
  500,
  (template: string, file: string) =>
    `The mail "${template}" has no subject: pass \`subject\` to sendMail or create ${file}.`,
);

/** The mail was not accepted by the transport; `reason` holds the transport's code. */
export const E_MAIL_SEND_FAILED = createError(
  "E_MAIL_SEND_FAILED",
  502,
  (to: string, reason: string, detail: string) =>
    `The mail to ${to} was not sent (${reason}): ${detail}. Check the mail server and the recipient address.`,
);

/** A storage key is unsafe (traversal, absolute path, backslash, control character...). */
export const E_STORAGE_KEY_INVALID = createError(
  "E_STORAGE_KEY_INVALID",
  400,
  (key: string, reason: string) =>
    `The file name ${JSON.stringify(key)} is not allowed: ${reason}. Use letters, digits, ".", "_", "-" and "/" between names.`,
);

/** No stored file has this key. */
export const E_STORAGE_NOT_FOUND = createError(
  "E_STORAGE_NOT_FOUND",
  404,
  (key: string) => `No stored file is named ${JSON.stringify(key)}.`,
);

/** A file is larger than the configured `storage.maxBytes`. */
export const E_STORAGE_TOO_LARGE = createError(
  "E_STORAGE_TOO_LARGE",
  413,
  (limit: number) => `The file is larger than the ${limit} bytes allowed. Send a smaller file.`,
);

/** A file's MIME type is not in the configured `storage.allowedTypes`. */
export const E_STORAGE_TYPE_NOT_ALLOWED = createError(
  "E_STORAGE_TYPE_NOT_ALLOWED",
  415,
  (type: string, allowed: string) => `Files of type "${type}" are not accepted; allowed: ${allowed}.`,
);

/** The storage backend failed (disk error, object storage unreachable or refusing). */
export const E_STORAGE_FAILED = createError(
  "E_STORAGE_FAILED",
  503,
  (operation: string, key: string, reason: string) =>
    `Storage could not ${operation} ${JSON.stringify(key)}: ${reason}. Check that the storage backend is reachable.`,
);

/**
 * The bucket (S3, Cloud Storage) or container (Azure) of the storage URL does not exist: a set-up
 * mistake of the deployment, not a missing file, so 503 and an error line in the log.
 */
export const E_STORAGE_BUCKET_MISSING = createError(
  "E_STORAGE_BUCKET_MISSING",
  503,
  (place: string, name: string, operation: string, key: string, action: string) =>
    `Storage could not ${operation} ${JSON.stringify(key)}: the ${place} ${JSON.stringify(name)} does not exist. ${action}`,
);

/** `storeUpload` was handed no file, or several, for one upload field (the client sent none or many). */
export const E_STORAGE_UPLOAD_MISSING = createError(
  "E_STORAGE_UPLOAD_MISSING",
  400,
  (got: string) => `Send exactly one file for this upload (got ${got}).`,
);

/** A signed storage URL is missing its signature, tampered with or expired. */
export const E_STORAGE_SIGNATURE_INVALID = createError(
  "E_STORAGE_SIGNATURE_INVALID",
  403,
  (reason: string) => `This file link is not valid (${reason}). Ask for a new link.`,
);

/** A listing cursor sent back (`?cursor=`) was altered, made by another app, or belongs to another listing. */
export const E_STORAGE_CURSOR_INVALID = createError(
  "E_STORAGE_CURSOR_INVALID",
  400,
  (reason: string) => `This listing cursor is not valid (${reason}). Start the listing again without a cursor.`,
);

/** A cache TTL (a `cacheResponse(seconds)` argument or a `set`/`remember` TTL) is not a positive number. */
export const E_CACHE_TTL_INVALID = createError(
  "E_CACHE_TTL_INVALID",
  500,
  (where: string, value: string) => `${where} needs a positive number of seconds, got ${value}.`,
);

/** A cache value cannot be stored as JSON. */
export const E_CACHE_VALUE_INVALID = createError(
  "E_CACHE_VALUE_INVALID",
  500,
  (key: string, reason: string) =>
    `The cache value for "${key}" cannot be stored: ${reason}. Store JSON-compatible values.`,
);

/** A signal name is empty or not a dotted lowercase name. */
export const E_SIGNAL_NAME_INVALID = createError(
  "E_SIGNAL_NAME_INVALID",
  500,
  (name: string) =>
    `The signal name ${JSON.stringify(name)} is invalid; use dotted lowercase words such as "order.paid".`,
);

/** A queued signal receiver has no name, or one another queued receiver of the signal has. */
export const E_SIGNAL_RECEIVER_NAME = createError(
  "E_SIGNAL_RECEIVER_NAME",
  500,
  (signal: string, what: string) => `Signal "${signal}": ${what}.`,
);

/** A worker got a queued delivery for a receiver that this process never connected. */
export const E_SIGNAL_RECEIVER_UNKNOWN = createError(
  "E_SIGNAL_RECEIVER_UNKNOWN",
  500,
  (signal: string, receiver: string) =>
    `No queued receiver "${receiver}" is connected to the signal "${signal}" in this process: connect it in a module the app loads at start-up (views/, lib/), so workers connect it too.`,
);

/** `assetUrl` was asked for a file that is not in the asset manifest. */
export const E_ASSET_NOT_FOUND = createError(
  "E_ASSET_NOT_FOUND",
  500,
  (path: string, dir: string) =>
    `The asset "${path}" is not in ${dir}/ nor a declared bundle; check its name (the manifest is built at start).`,
);

/** A request for a static file has an unsafe or undecodable path: koa-host's, the one static-path rule. */
export { E_STATIC_PATH_INVALID } from "@fwkit/koa-host";

/** A request for a static file that does not exist. */
export const E_STATIC_NOT_FOUND = createError(
  "E_STATIC_NOT_FOUND",
  404,
  (path: string) => `No static file is served at ${path}.`,
);

/** A bundle declared in `assets.bundles` could not be built. */
export const E_ASSET_BUNDLE_FAILED = createError(
  "E_ASSET_BUNDLE_FAILED",
  500,
  (bundle: string, reason: string) => `The asset bundle "${bundle}" could not be built: ${reason}.`,
);

/** The package behind a configured backend (nodemailer, ioredis, the AWS SDK, flydrive, esbuild) could not be loaded. */
export const E_SERVICE_DRIVER_MISSING = createError(
  "E_SERVICE_DRIVER_MISSING",
  500,
  (user: string, name: string, reason: string) =>
    `The ${user} needs the package "${name}", which could not be loaded (${reason}). Install it (npm install ${name}) or configure another backend.`,
);
