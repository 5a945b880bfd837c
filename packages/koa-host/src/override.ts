import type { Context } from "koa";
import { E_BAD_METHOD_OVERRIDE } from "./errors.js";

const OVERRIDES: Readonly<Record<string, string>> = {
  PUT: "PUT",
  PATCH: "PATCH",
  DELETE: "DELETE",
  UPDATE: "PATCH",
  POST: "POST",
};

/**
 * The verb a POST is dispatched as: the `X-HTTP-Method-Override` header or the `_method` form field
 * (PUT, PATCH, DELETE, or UPDATE which answers as PATCH). Other values answer 400.
 * @internal the host wires it; not exported from the package.
 */
export function overriddenMethod(ctx: Context): string {
  const header = ctx.get("x-http-method-override");
  const field = header ? undefined : (ctx.request as { body?: Record<string, unknown> }).body?.["_method"];
  const value = header || (typeof field === "string" ? field : undefined);
  if (!value) return "POST";
  const verb = OVERRIDES[value.toUpperCase()];
  if (!verb) throw new E_BAD_METHOD_OVERRIDE(value);
  return verb;
}
