/**
 * The path a log line shows: the request's path with the values of secret route parameters
 * (`/reset-password/:token`, `/verify-email/:token`, an API `:key`) replaced by the parameter's
 * name, so a log never holds a live reset, verification or sign-in token.
 */
import type { Context } from "koa";

// Route parameter names whose values are credentials.
const SECRET_PARAM = /token|secret|signature|password|passcode|otp|key$/i;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `ctx.path` with each segment holding a secret route parameter's value written as `:name`. */
export function loggedPath(ctx: Context): string {
  const params = (ctx as { params?: Readonly<Record<string, unknown>> }).params;
  if (!params) return ctx.path;
  const secrets = new Map<string, string>();
  for (const [name, value] of Object.entries(params))
    if (SECRET_PARAM.test(name) && typeof value === "string" && value !== "") secrets.set(value, name);
  if (secrets.size === 0) return ctx.path;
  return ctx.path
    .split("/")
    .map((segment) => {
      const name = secrets.get(decoded(segment));
      return name === undefined ? segment : `:${name}`;
    })
    .join("/");
}
