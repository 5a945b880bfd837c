import type { Context } from "koa";
import { ASSETS_PREFIX } from "../../assets.js";
import type { ContribRuntime } from "../runtime.js";

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The requests maintenance never blocks: the admin area, the login and logout pages (so an admin
 * can log in and switch maintenance off) and static files (the pages' styles).
 */
export function isMaintenanceExempt(
  ctx: Context,
  runtime: ContribRuntime,
  basePath: string,
  staticPrefix: string,
): boolean {
  const path = ctx.path;
  const login = runtime.loginUrl.split("?")[0]!;
  return (
    under(path, `${basePath}/admin`) ||
    under(path, login.startsWith("/") ? `${basePath}${login}` : login) ||
    under(path, `${basePath}/logout`) ||
    under(path, `${basePath}${staticPrefix}`) ||
    under(path, `${basePath}${ASSETS_PREFIX}`)
  );
}
