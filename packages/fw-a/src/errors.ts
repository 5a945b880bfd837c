/**
 * Errors raised by fw-a itself. The request-time errors (HTTPError, body, template) come from
 * koa-host and are re-exported here so an app imports every code it may branch on from one place.
 */
export {
  E_BODY_TOO_LARGE,
  E_INVALID_VIEW_NAME,
  E_MALFORMED_JSON,
  E_MISSING_SECRET_KEY,
  E_TEMPLATE_NOT_FOUND,
  E_VIEW_EXISTS,
} from "@fwkit/koa-host";
