/**
 * Errors raised by fw-a itself. The request-time errors (HTTPError, body, template) come from
 * koa-host and are re-exported here so an app imports every code it may branch on from one place.
 */
export { E_BODY_TOO_LARGE, E_MALFORMED_JSON, E_MISSING_SECRET_KEY, E_TEMPLATE_NOT_FOUND } from "@fwkit/koa-host";
// The view generator's errors (gen:view), from the command line's light errors entry (no yargs).
export { E_INVALID_VIEW_NAME, E_VIEW_EXISTS } from "@fwkit/cli/errors";
