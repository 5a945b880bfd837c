/**
 * Errors raised by koa-host. Client-facing ones carry a 4xx status and a message that says what
 * was wrong with the request; start-up ones say how to fix the app.
 */
import { createError } from "routing-kernel";

/** Production start without a secret key. */
export const E_MISSING_SECRET_KEY = createError(
  "E_MISSING_SECRET_KEY",
  500,
  () =>
    "APP_ENV is production but no secret key is set. Set SECRET_KEY in the environment (a long random string) or secretKey in lib/config.ts.",
);

/** A production secret (`SECRET_KEY`, `jwtSecret`, a fallback key) is short, repetitive or a placeholder. */
export const E_WEAK_SECRET_KEY = createError(
  "E_WEAK_SECRET_KEY",
  500,
  (setting: string, reason: string, howTo: string) =>
    `APP_ENV is production and the secret ${setting} is too weak: ${reason}. Set it to random bytes, never words, a phrase, a counter or a key from an example: ${howTo}.`,
);

/** `baseUrl` (`BASE_URL`) is not an absolute http(s) address. */
export const E_BASE_URL_INVALID = createError(
  "E_BASE_URL_INVALID",
  500,
  (value: unknown) =>
    `The config key baseUrl (BASE_URL) must be the app's public address, such as "https://shop.example.com" (http or https, no user, query or fragment), not ${JSON.stringify(value) ?? String(value)}.`,
);

/** Production start without `baseUrl` while something mails absolute links. */
export const E_BASE_URL_REQUIRED = createError(
  "E_BASE_URL_REQUIRED",
  500,
  (needs: string) =>
    `APP_ENV is production and ${needs} needs the app's public address for the links it mails, but none is set. Set BASE_URL in the environment (or baseUrl in lib/config.ts), such as https://shop.example.com: links are never built from the request's Host header, which the client writes.`,
);

/** A request body is not valid JSON. */
export const E_MALFORMED_JSON = createError(
  "E_MALFORMED_JSON",
  400,
  (detail: string) =>
    `The request body is not valid JSON (${detail}). Send a valid JSON document or fix the Content-Type.`,
);

/** A request body could not be parsed. */
export const E_MALFORMED_BODY = createError(
  "E_MALFORMED_BODY",
  400,
  (detail: string) => `The request body could not be parsed: ${detail}.`,
);

/** A request body is larger than the configured limit. */
export const E_BODY_TOO_LARGE = createError(
  "E_BODY_TOO_LARGE",
  413,
  (limit: string) => `The request body is larger than the limit of ${limit}. Send less data.`,
);

/** The request URL cannot be decoded. */
export const E_BAD_URL = createError(
  "E_BAD_URL",
  400,
  (path: string) => `The URL path ${JSON.stringify(path.slice(0, 200))} is not valid percent-encoding.`,
);

/** A request for a static file has an unsafe or undecodable path (traversal, NUL, backslash...). */
export const E_STATIC_PATH_INVALID = createError(
  "E_STATIC_PATH_INVALID",
  400,
  (reason: string) => `The static file path is invalid: ${reason}.`,
);

/** A header a view set holds a line break or NUL (usually client text copied into it). */
export const E_BAD_HEADER_VALUE = createError(
  "E_BAD_HEADER_VALUE",
  400,
  (name: string) =>
    `The response header ${JSON.stringify(name.slice(0, 80))} would contain a line break built from the request; send the value without line breaks.`,
);

/** The method override names a verb that cannot be overridden to. */
export const E_BAD_METHOD_OVERRIDE = createError(
  "E_BAD_METHOD_OVERRIDE",
  400,
  (value: string) =>
    `The method override ${JSON.stringify(value.slice(0, 40))} is not allowed; use PUT, PATCH, DELETE or UPDATE.`,
);

/** A view module could not be imported. */
export const E_VIEW_MODULE_FAILED = createError(
  "E_VIEW_MODULE_FAILED",
  500,
  (file: string, reason: string) => `The view module ${file} failed to load: ${reason}`,
);

/** The app's lib/config file could not be loaded or exports no config. */
export const E_CONFIG_INVALID = createError(
  "E_CONFIG_INVALID",
  500,
  (file: string, reason: string) => `The config file ${file} is invalid: ${reason}`,
);

/** An OpenAPI option (config block `openapi`, or `openApiDocument()`'s options) has the wrong shape. */
export const E_OPENAPI_OPTION = createError(
  "E_OPENAPI_OPTION",
  500,
  (where: string, key: string, reason: string) => `OpenAPI option ${key} in ${where} is invalid: ${reason}.`,
);

/** A hand-written route or plugin was added after the app started. */
export const E_HOST_STARTED = createError(
  "E_HOST_STARTED",
  500,
  (what: string) => `${what} must be added before the app starts; the route table is frozen at start-up.`,
);

/** A mounted app's prefix would hide a route, static folder or mount of the app it is mounted in. */
export const E_MOUNT_OVERLAP = createError(
  "E_MOUNT_OVERLAP",
  500,
  (prefix: string, hidden: string) =>
    `The app mounted at ${prefix} would hide ${hidden}: every request under ${prefix} goes to the mounted app. Give the route another path (a route decorator on its class or method), or mount the app under another prefix.`,
);

/** A mount prefix is not a plain path such as `/api`. */
export const E_MOUNT_PREFIX_INVALID = createError(
  "E_MOUNT_PREFIX_INVALID",
  500,
  (prefix: string) =>
    `The mount prefix ${JSON.stringify(prefix)} is not a plain path below the root, such as "/api" (no parameters, query, "." or ".." segments).`,
);

/** No app entry (app.ts) was found, or it exports no app. */
export const E_APP_NOT_FOUND = createError(
  "E_APP_NOT_FOUND",
  500,
  (where: string, reason: string) => `No app could be loaded from ${where}: ${reason}`,
);

/** Multi-application: the named app does not exist. */
export const E_UNKNOWN_APP = createError(
  "E_UNKNOWN_APP",
  500,
  (name: string, known: string) =>
    `There is no app named "${name}". Known apps: ${known}. Pick one with --app NAME or APP_NAME.`,
);

/** A template a view needs does not exist. */
export const E_TEMPLATE_NOT_FOUND = createError(
  "E_TEMPLATE_NOT_FOUND",
  500,
  (handler: string, path: string) =>
    `${handler} renders a template, but ${path} does not exist. Create it, or return a string or JSON.`,
);

/** A production key of the config (trustProxy, healthPath, readyPath, readyTimeout, shutdownGrace, requestIdHeader) is wrong. */
export const E_PRODUCTION_CONFIG = createError(
  "E_PRODUCTION_CONFIG",
  500,
  (key: string, expected: string, value: unknown) =>
    `The config key ${key} must be ${expected}, not ${JSON.stringify(value) ?? String(value)}.`,
);

/** The start port is taken by another process. */
export const E_PORT_IN_USE = createError(
  "E_PORT_IN_USE",
  500,
  (address: string) =>
    `${address} is already in use by another process. Stop it, or use another port: --port 5001, or PORT=5001 in the environment.`,
);

/** A development tool (tsx, esbuild) the command needs is not installed in the app. */
export const E_DEV_TOOL_MISSING = createError(
  "E_DEV_TOOL_MISSING",
  500,
  (name: string, purpose: string, reason: string) =>
    `The ${purpose} needs the package "${name}", a development dependency of the app, which could not be loaded (${reason}). Install it in the app: npm install -D ${name}`,
);

/** The app's `.env` file has a line that is not `NAME=value`. */
export const E_CONFIG_ENV_FILE = createError(
  "E_CONFIG_ENV_FILE",
  500,
  (file: string, line: number, reason: string) =>
    `${file}${line > 0 ? ` line ${line}` : ""}: ${reason}. Write one NAME=value per line (# starts a comment).`,
);

/** The test environment was given a database that could be the development one. */
export const E_TEST_DB_URL = createError(
  "E_TEST_DB_URL",
  500,
  (url: string, reason: string) =>
    `The test environment refuses the database ${url}: ${reason}. Tests delete rows, so they run on a database of their own: ` +
    "leave it unset (SQLite in memory), or set TEST_DB_URL (or DB_URL in .env.test) to a database named for tests, such as postgres://127.0.0.1/tasks_test. " +
    "The test environment never reads DB_URL from .env or the environment.",
);

/** `APP_ENV` names an environment the app does not declare. */
export const E_CONFIG_UNKNOWN_ENV = createError(
  "E_CONFIG_UNKNOWN_ENV",
  500,
  (env: string, known: readonly string[], suggestion?: string) =>
    `APP_ENV is "${env}", which is not an environment of this app.${suggestion ? ` Did you mean "${suggestion}"?` : ""} Known: ${known.join(", ")}. ` +
    `To add one, declare it in lib/config.ts: environments: { ${JSON.stringify(env)}: { ... } }.`,
);

/** A config key (top level or inside a block) that nothing reads: a typo, or a battery that is not installed. */
export const E_CONFIG_UNKNOWN_KEY = createError(
  "E_CONFIG_UNKNOWN_KEY",
  500,
  (path: string, where: string, known: readonly string[], suggestion?: string) =>
    `Unknown config key "${path}" (${where}).${suggestion ? ` Did you mean "${suggestion}"?` : ""} ` +
    `Known keys${path.includes(".") ? ` of ${path.slice(0, path.lastIndexOf("."))}` : ""}: ${known.join(", ")}.` +
    (path.includes(".") ? "" : ` A key your app reads itself is declared in lib/config.ts: appKeys: ["${path}"].`),
);

/** A mounted app lacks a plugin whose protection the parent app requires of it (the CSRF check). */
export const E_MOUNT_UNGUARDED = createError(
  "E_MOUNT_UNGUARDED",
  500,
  (prefix: string, plugin: string) =>
    `The app mounted at ${prefix} has no ${plugin} plugin, but this app's ${plugin} plugin must protect every request it serves (CSRF on unsafe verbs). Turn the ${plugin} battery on in the mounted app.`,
);

/** A value written as XML (an `@renderXml` result, a 422 body) contains itself. */
export const E_XML_CYCLE = createError(
  "E_XML_CYCLE",
  500,
  (path: string) => `The value returned for XML refers to itself at ${path}; return plain data without cycles.`,
);

/** A view returned a value no response can carry (a function, a symbol). */
export const E_RESULT_UNSUPPORTED = createError(
  "E_RESULT_UNSUPPORTED",
  500,
  (handler: string, type: string) =>
    `${handler} returned a ${type}, which no response can carry. Return a string, a plain object, an array, a class instance, a Buffer or stream, a reply() or a redirect().`,
);

/** A view's result cannot be written in its route's format (a bigint or a cycle in JSON). */
export const E_RESULT_NOT_SERIALIZABLE = createError(
  "E_RESULT_NOT_SERIALIZABLE",
  500,
  (handler: string, format: string, reason: string) =>
    `${handler} returned a value that cannot be written as ${format} (${reason}). Return plain data: no cycles, bigints as strings or numbers.`,
);

/** A test's `res.json()` / `res.xml()` read an answer that is not in that format. */
export const E_TEST_RESPONSE_FORMAT = createError(
  "E_TEST_RESPONSE_FORMAT",
  500,
  (format: string, status: number, type: string, body: string) =>
    `The answer is not ${format} (status ${status}, ${type}); check the status and content type first, or read it with res.text(). Body: ${body}`,
);

/** The test client's `loginAs(user)` failed (no session battery, or the battery's login refused the user). */
export const E_TEST_CLIENT_LOGIN = createError(
  "E_TEST_CLIENT_LOGIN",
  500,
  (status: number, body: string) =>
    `client.loginAs(user) failed (status ${status}): build the app with the security battery on and pass the user your login view passes to login(ctx, user). Answer: ${body}`,
);

/** A readiness check found a part of the app (the database, the session store, the cache) not answering. */
export const E_NOT_READY = createError(
  "E_NOT_READY",
  503,
  (part: string, reason: string) => `${part} does not answer: ${reason}`,
);

/** Text given to the test client's XML reader (`res.xml()`, `parseXml`) is not well-formed XML. */
export const E_XML_INVALID = createError(
  "E_XML_INVALID",
  500,
  (problem: string) => `The text is not well-formed XML: ${problem}.`,
);

/** A framework's `serveForTest` set-up cannot serve what a test asked for. */
export const E_SERVE_FOR_TEST = createError(
  "E_SERVE_FOR_TEST",
  500,
  (framework: string, problem: string) => `serveForTest (${framework}): ${problem}.`,
);

/** The OpenAPI document needs an optional package to describe a route's schema. */
export const E_OPENAPI_CONVERTER_MISSING = createError(
  "E_OPENAPI_CONVERTER_MISSING",
  500,
  (library: string, name: string) =>
    `${library} schemas need ${name} to be described in the OpenAPI document: npm install ${name}`,
);

/** A plugin joins a phase the host does not have, or still gives a hook the phases replaced. */
export const E_PLUGIN_PHASE_UNKNOWN = createError(
  "E_PLUGIN_PHASE_UNKNOWN",
  500,
  (plugin: string, phase: string, known: string) =>
    `The plugin ${plugin} joins the phase "${phase}", which the host does not have. Give its handler under phases, as one of: ${known}.`,
);

/** Two plugins offer a getter of the same key on `ctx.state`. */
export const E_STATE_GETTER_TAKEN = createError(
  "E_STATE_GETTER_TAKEN",
  500,
  (key: string, first: string, second: string) =>
    `The plugins ${first} and ${second} both offer ctx.state.${key}. Keep one of them, or give one of the values another key.`,
);

/** A plugin's `after` names a plugin the app does not have, or the constraints go round in a circle. */
export const E_PLUGIN_ORDER = createError(
  "E_PLUGIN_ORDER",
  500,
  (plugin: string, problem: string, known: string) =>
    `The plugin ${plugin} must come after ${problem}. The app's plugins are: ${known}. Add the plugin it needs (turn its battery on), or remove it from after.`,
);
