import type { Context, Middleware } from "koa";
import { HTTPError } from "@fwkit/koa-host";
import { defineSlot, routeSlot, type ErrorInfo, type Responder } from "@fwkit/koa-host/plugin";
import { currentUser, E_LOGIN_REQUIRED } from "@fwkit/security";
import { loginRedirectUrl, rejectsHtml } from "@fwkit/security/plugin";
import type { Route } from "routing-kernel";
import { isDataRoute } from "routing-kernel/plugin";
import { E_MAINTENANCE } from "../errors.js";
import type { ContribSettings } from "./config.js";
import { isMaintenanceExempt } from "./maintenance/exempt.js";
import type { MaintenanceFlag } from "./maintenance/flag.js";
import { roleLevel, type RoleRequirement } from "./roles.js";
import { translatorOf, type ContribRuntime } from "./runtime.js";

/** Whether the site was in maintenance when the gate saw the request (the admins' banner says so). */
export const maintenanceOnSlot = defineSlot<boolean>("fw-b.maintenance-on");

/** Whether the request's user has at least the role `needed` (by the app's role levels). */
function hasRole(ctx: Context, settings: ContribSettings, needed: string | undefined): boolean {
  const user = currentUser<{ role?: unknown }>(ctx);
  const roles = settings.auth?.roles ?? {};
  return Boolean(user) && roleLevel(roles, user!.role) >= roleLevel(roles, needed ?? "admin");
}

/**
 * A route's role check (`@requireRole`, the admin area): a visitor is sent to the login page (JSON
 * and XML routes, and clients that take no HTML, get 401), a user without the role gets 403.
 */
export function roleMiddleware(route: Route, requirement: RoleRequirement, runtime: ContribRuntime): Middleware {
  const data = isDataRoute(route);
  const settings = runtime.settings;
  const needed = requirement.role ?? settings.auth?.adminRole ?? "admin";
  return async (ctx, next) => {
    if (!currentUser(ctx)) {
      if (data || rejectsHtml(ctx)) throw new E_LOGIN_REQUIRED(runtime.loginUrl);
      ctx.redirect(loginRedirectUrl(runtime.loginUrl, ctx.originalUrl));
      return;
    }
    if (!hasRole(ctx, settings, needed)) throw HTTPError.Forbidden(translatorOf(ctx)("errors.role", { role: needed }));
    await next();
  };
}

/** True when the request's user is an admin of the contrib modules (they see the site in maintenance). */
export function isContribAdmin(ctx: Context, settings: ContribSettings): boolean {
  return Boolean(settings.auth) && hasRole(ctx, settings, settings.auth?.adminRole);
}

/** Answers 503 with the maintenance page (or JSON for a data route), in the request's language. */
async function answerMaintenance(ctx: Context, retryAfter: number, responder: Responder | undefined): Promise<void> {
  const error = new E_MAINTENANCE();
  const message = translatorOf(ctx)("maintenance.message");
  // The gate runs before the view is matched: the route it is for decides the answer's kind
  // (JSON for a @renderJson view), as for every other error raised before the view.
  const route = routeSlot.get(ctx) ?? ctx.runtime?.lookupRoute(ctx)?.route;
  const info: ErrorInfo = { status: 503, message, error, ...(route ? { route } : {}) };
  ctx.status = 503;
  ctx.set("Retry-After", String(retryAfter));
  ctx.set("Cache-Control", "no-store");
  if (!responder) throw error;
  await responder.renderError(ctx, info);
  ctx.status = 503;
}

/**
 * The maintenance gate: while the flag is on, every request but the exempt ones (admin area, login,
 * static files) and those of admins is answered 503.
 */
export function maintenanceGate(
  flag: MaintenanceFlag,
  runtime: ContribRuntime,
  options: {
    readonly basePath: string;
    readonly staticPrefix: string;
    readonly responder: Responder;
  },
): Middleware {
  const settings = runtime.settings;
  return async (ctx, next) => {
    const on = await flag.isOn();
    maintenanceOnSlot.set(ctx, on);
    if (!on || isMaintenanceExempt(ctx, runtime, options.basePath, options.staticPrefix)) return next();
    if (currentUser(ctx) && hasRole(ctx, settings, settings.auth?.adminRole ?? "admin")) return next();
    await answerMaintenance(ctx, settings.maintenance!.retryAfter, options.responder);
  };
}
