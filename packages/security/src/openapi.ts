import type { Route } from "routing-kernel";
import { BEARER_AUTH_TAG } from "./bearer.js";
import { CSRF_EXEMPT_TAG, CSRF_HEADER } from "./csrf.js";
import { LOGIN_REQUIRED_TAG } from "./login-required.js";
import { RATE_LIMIT_TAG_PREFIX } from "./rate-limit.js";

const SAFE_VERBS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Names of the security schemes the battery puts in an OpenAPI document. */
export const OPENAPI_SCHEMES = Object.freeze({ session: "sessionCookie", csrf: "csrfToken", bearer: "bearerJwt" });

/**
 * The security battery's part of an OpenAPI document: the session cookie, the CSRF header and
 * bearer JWT schemes, and per route what its guards answer (401 for `loginRequired` and
 * `bearerAuth` views, 403 for unsafe verbs without a CSRF token unless the view is exempt, 429
 * for views with a `rateLimit`).
 */
export function securityOpenApi(settings: { readonly sessionCookie: string }) {
  return {
    securitySchemes: {
      [OPENAPI_SCHEMES.session]: {
        type: "apiKey",
        in: "cookie",
        name: settings.sessionCookie,
        description: "The session cookie set at login.",
      },
      [OPENAPI_SCHEMES.csrf]: {
        type: "apiKey",
        in: "header",
        name: CSRF_HEADER,
        description: "The CSRF token of the session (csrf_token() in a page); required on POST, PUT, PATCH and DELETE.",
      },
      [OPENAPI_SCHEMES.bearer]: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
    },
    route(route: Route) {
      const unsafe = route.verbs.some((verb) => !SAFE_VERBS.has(verb));
      const csrf = unsafe && route.tags[CSRF_EXEMPT_TAG] !== true;
      const responses: Record<string, string> = {};
      const security: Array<Record<string, string[]>> = [];
      if (route.tags[BEARER_AUTH_TAG] === true) {
        responses["401"] = "A valid bearer token (JWT) is required";
        security.push({ [OPENAPI_SCHEMES.bearer]: [] });
      }
      if (route.tags[LOGIN_REQUIRED_TAG] === true) {
        responses["401"] = "Login required";
        security.push(
          csrf ? { [OPENAPI_SCHEMES.session]: [], [OPENAPI_SCHEMES.csrf]: [] } : { [OPENAPI_SCHEMES.session]: [] },
        );
      } else if (csrf) {
        security.push({ [OPENAPI_SCHEMES.csrf]: [] });
      }
      if (csrf) responses["403"] = "The CSRF token is missing or invalid";
      if (Object.keys(route.tags).some((key) => key.startsWith(RATE_LIMIT_TAG_PREFIX))) {
        responses["429"] = "Too many requests: the rate limit is used up (Retry-After says when to try again)";
      }
      if (security.length === 0 && Object.keys(responses).length === 0) return undefined;
      return { responses, ...(security.length > 0 ? { security } : {}) };
    },
  };
}
