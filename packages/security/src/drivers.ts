/**
 * Loads the packages behind the features (bcrypt, argon2, jose, @koa/cors; koa-session and
 * koa-helmet when their middleware is made) when an app first uses one, so importing `security`
 * (and so every framework) stays cheap. A package that is missing or fails to load is reported as
 * `E_SECURITY_DRIVER_MISSING`, naming it and its user.
 */
import { driverLoader } from "@fwkit/battery-kit";
import { E_SECURITY_DRIVER_MISSING } from "./errors.js";

/** `requireDriver(name, user)` for CommonJS packages, `importDriver<typeof import("name")>(name, user)` for ES modules. */
export const { requireDriver, importDriver } = driverLoader(
  import.meta.url,
  (user, name, reason) => new E_SECURITY_DRIVER_MISSING(user, name, reason),
);
