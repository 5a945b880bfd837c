/**
 * Errors raised by fw-a itself. The request-time errors (HTTPError, body, template) come from
 * koa-host and are re-exported here so an app imports every code it may branch on from one place.
 */
import { createError } from "routing-kernel";

/** `fw-a gen:view NAME` was given a name that cannot be a module and a class. */
export const E_INVALID_VIEW_NAME = createError(
  "E_INVALID_VIEW_NAME",
  500,
  (name: string) => `"${name}" is not a valid view name: use letters, digits, "-" and "_", starting with a letter.`,
);

/** `fw-a gen:view NAME` found the files already there. */
export const E_VIEW_EXISTS = createError(
  "E_VIEW_EXISTS",
  500,
  (module: string) => `views/${module}.ts and its template already exist; nothing was written.`,
);

export {
  E_BODY_TOO_LARGE,
  E_MALFORMED_JSON,
  E_MISSING_SECRET_KEY,
  E_TEMPLATE_NOT_FOUND,
} from "@fwkit/koa-host";
