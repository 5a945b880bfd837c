/**
 * `bearerAuth`: a view class or method that needs `Authorization: Bearer <JWT>`. The verified
 * claims go on `ctx.state.jwt`; a missing, malformed, expired, tampered, other-key or `alg: none`
 * token gets 401 with a `WWW-Authenticate: Bearer` challenge (RFC 6750).
 */
import type { Context, Middleware } from "koa";
import type { JWTPayload } from "jose";
import { bareOrCalled, setTag, type ViewDecorator } from "routing-kernel";
import { E_BEARER_TOKEN_INVALID, E_BEARER_TOKEN_MISSING, withHeaders } from "./errors.js";
import { signJwt, verifyJwt, type SignJwtOptions } from "./jwt.js";
import { runtimeOf } from "./runtime.js";
import { claimsSlot } from "./request-state.js";

/** Route tag set by {@link bearerAuth}. */
export const BEARER_AUTH_TAG = "security.bearerAuth";

/** Requires a valid bearer JWT on a view class or method; bare (`@bearerAuth`) or called. */
export const bearerAuth = bareOrCalled<ViewDecorator>(() => setTag("bearerAuth", BEARER_AUTH_TAG, true), "bearerAuth");

/** The token of an `Authorization: Bearer <token>` header; `null` when the header is malformed. */
export function bearerToken(ctx: Context): string | null | undefined {
  const header = ctx.get("Authorization");
  if (!header) return undefined;
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/** The verified claims of this request's bearer token, when a `bearerAuth` route checked one. */
export function jwtClaims(ctx: Context): JWTPayload | undefined {
  return claimsSlot.get(ctx);
}

function quoted(text: string): string {
  return text.replace(/["\\]/g, "'");
}

/** Route middleware for a `bearerAuth` route. */
export function bearerAuthMiddleware(): Middleware {
  return async (ctx, next) => {
    const keys = runtimeOf(ctx, "@bearerAuth").jwt;
    const token = bearerToken(ctx);
    if (token === undefined)
      throw withHeaders(new E_BEARER_TOKEN_MISSING(), { "WWW-Authenticate": 'Bearer realm="api"' });
    try {
      if (token === null) throw new E_BEARER_TOKEN_INVALID('the Authorization header is not "Bearer <token>"');
      claimsSlot.set(ctx, await verifyJwt(token, keys));
    } catch (error) {
      const message = error instanceof Error ? error.message : "invalid token";
      throw withHeaders(error as Error, {
        "WWW-Authenticate": `Bearer realm="api", error="invalid_token", error_description="${quoted(message)}"`,
      });
    }
    await next();
  };
}

/** Signs a JWT with the app's configured algorithm and key, from a request (`security.issueToken(ctx, { sub })`). */
export function issueToken(ctx: Context, claims: JWTPayload, options?: SignJwtOptions): Promise<string> {
  return signJwt(claims, runtimeOf(ctx, "issueToken()").jwt, options);
}
