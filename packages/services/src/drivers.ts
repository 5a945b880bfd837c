/**
 * Loads the packages behind the backends (nodemailer, the AWS SDK, ioredis, flydrive, esbuild)
 * when an app first uses one, so importing `services` (and so every framework) does not load
 * drivers the app never configured. A package that is missing or fails to load is reported as
 * `E_SERVICE_DRIVER_MISSING`, naming it and what needed it.
 */
import { driverLoader } from "@fwkit/battery-kit";
import { E_SERVICE_DRIVER_MISSING } from "./errors.js";

/** `requireDriver(name, user)` for CommonJS packages, `importDriver<typeof import("name")>(name, user)` for ES modules. */
export const { requireDriver, importDriver } = driverLoader(
  import.meta.url,
  (user, name, reason) => new E_SERVICE_DRIVER_MISSING(user, name, reason),
);
