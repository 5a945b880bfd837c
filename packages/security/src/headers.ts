/**
 * Security headers on koa-helmet, with helmet's defaults for HTML (a same-origin
 * Content-Security-Policy, nosniff, frame-ancestors, referrer policy...). Outside production HSTS
 * and `upgrade-insecure-requests` are left out so plain-HTTP development servers keep working.
 */
import type { Middleware } from "koa";
import type helmet from "koa-helmet";
import { requireDriver } from "./drivers.js";

/** koa-helmet's options. */
export type SecurityHeadersOptions = NonNullable<Parameters<typeof helmet>[0]>;

/** The helmet middleware for an environment, with the app's options over the defaults. */
export function securityHeadersMiddleware(options: Record<string, unknown>, production: boolean): Middleware {
  const defaults: Record<string, unknown> = production
    ? {}
    : { strictTransportSecurity: false, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } };
  // Required (the CommonJS build) when the middleware is made, not with the package, like session.ts.
  const koaHelmet = requireDriver<typeof helmet>("koa-helmet", "security headers");
  return koaHelmet({ ...defaults, ...options } as SecurityHeadersOptions);
}
