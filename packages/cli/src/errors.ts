/**
 * Errors raised by the command line and the production runner. None reaches an HTTP client: the
 * status is 500 for all of them, and each message says what to change (the flag, the file, the
 * command to run). `runCli` prints them as `error: E_CODE: message` and exits with status 1.
 */
import { createError } from "routing-kernel";

/** A command line yargs refused: an unknown command or option, a missing argument, flags that cannot go together. */
export const E_CLI_USAGE = createError("E_CLI_USAGE", 500, (message: string) => message);

/** A command's flag has a value the command cannot use (a shared command's own flags; `start` and `serve` use E_START_OPTION). */
export const E_COMMAND_OPTION = createError(
  "E_COMMAND_OPTION",
  500,
  (option: string, expected: string, value: unknown) =>
    `${option} must be ${expected}, not ${typeof value === "string" ? JSON.stringify(value) : String(value)}.`,
);

/** The app's `run/scripts.ts` (its own CLI commands) failed to load: every command but init refuses to run. */
export const E_USER_COMMANDS_LOAD = createError(
  "E_USER_COMMANDS_LOAD",
  500,
  (file: string, reason: string) =>
    `The app's commands in ${file} could not be loaded, so no command runs until it is fixed (only the init command works without it): ${reason}`,
);

/** A deploy command option is wrong (`--host`, or `BASE_URL` it falls back to). */
export const E_DEPLOY_OPTION = createError(
  "E_DEPLOY_OPTION",
  500,
  (option: string, expected: string, value: unknown) => `${option} must be ${expected}, not ${JSON.stringify(value)}.`,
);

/** The deploy command could not pack a dependency the app reaches by a path (its framework) for the image. */
export const E_DEPLOY_VENDOR = createError(
  "E_DEPLOY_VENDOR",
  500,
  (what: string, reason: string) => `The deploy command could not prepare ${what} for the container image: ${reason}`,
);

/** A serving option is wrong (`--workers`, `--port`, `--host` of `start`; `--port` of the development server). */
export const E_START_OPTION = createError(
  "E_START_OPTION",
  500,
  (option: string, expected: string, value: unknown) => `${option} must be ${expected}, not ${String(value)}.`,
);

/** Workers fail before answering (at start, or over and over after a crash). */
export const E_WORKERS_FAILED = createError(
  "E_WORKERS_FAILED",
  500,
  (reason: string) => `The app's workers could not start: ${reason}`,
);

/** The build folder exists but holds no built app, or the build itself failed. */
export const E_BUILD_FAILED = createError("E_BUILD_FAILED", 500, (reason: string) => `The build failed: ${reason}`);

/** A release command (release, rollback) or `start` found the release folders in a state it cannot use. */
export const E_RELEASE = createError(
  "E_RELEASE",
  500,
  (reason: string) => `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`,
);

/** A view generator (`fw-a gen:view`, `fw-b :addview`) got a name that cannot be a view module and class. */
export const E_INVALID_VIEW_NAME = createError(
  "E_INVALID_VIEW_NAME",
  500,
  (name: string, subfolders: boolean = false) =>
    `"${name}" is not a valid view name. Use letters, digits, "-" or "_"${subfolders ? ' (and "/" for a sub-folder)' : ""}, starting with a letter, e.g. "blog"${subfolders ? ' or "admin/users"' : ""}.`,
);

/** A view generator found the view's files already there; nothing was written. */
export const E_VIEW_EXISTS = createError(
  "E_VIEW_EXISTS",
  500,
  (file: string) => `${file} already exists; nothing was written. Pick another name or edit that file.`,
);

/** A resource generator (`fw-a gen:resource`, `fw-b :resource`) got a name that cannot name a model. */
export const E_RESOURCE_NAME = createError(
  "E_RESOURCE_NAME",
  500,
  (name: string) =>
    `"${name}" cannot name a resource: use the singular in letters, digits and "_", starting with a letter, e.g. Note or blog_post.`,
);

/** A resource generator got a field it cannot use. */
export const E_RESOURCE_FIELD = createError(
  "E_RESOURCE_FIELD",
  500,
  (field: string, why: string) => `The field ${JSON.stringify(field)} cannot be generated: ${why}.`,
);

/** A resource generator found one of its files or names already in the app; nothing was written. */
export const E_RESOURCE_EXISTS = createError(
  "E_RESOURCE_EXISTS",
  500,
  (what: string) =>
    `${what} already exists, so the resource was not generated (nothing was written). Pick another name, or remove what is there first.`,
);

/** The init command found a package.json it cannot merge the new app's settings into; nothing was written. */
export const E_INIT_PACKAGE_JSON = createError(
  "E_INIT_PACKAGE_JSON",
  500,
  (file: string, why: string) =>
    `${file} cannot take the new app's settings: ${why}. Nothing was written. Fix it, or run the init command in an empty folder (--root my-app).`,
);
