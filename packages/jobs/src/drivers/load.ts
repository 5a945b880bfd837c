/**
 * Loads the optional packages behind the jobs battery (bullmq, bull-board) on first use, so an
 * app on `memory:` installs neither. A missing one is `E_JOBS_DRIVER_MISSING`, naming its install.
 */
import { driverLoader } from "@fwkit/battery-kit";
import { E_JOBS_DRIVER_MISSING } from "../errors.js";

/** `importDriver<typeof import("name")>(name, user)` for ES modules, `requireDriver(name, user)` for CommonJS ones. */
export const { importDriver, requireDriver } = driverLoader(
  import.meta.url,
  (user, name, reason) => new E_JOBS_DRIVER_MISSING(user, name, reason),
);
