import { driverLoader } from "@fwkit/battery-kit";
import { E_OBSERVABILITY_DRIVER_MISSING } from "./errors.js";

/** The OpenTelemetry SDK packages: optional peers, loaded only when tracing is on. */
export const { requireDriver } = driverLoader(
  import.meta.url,
  (user, name, reason) => new E_OBSERVABILITY_DRIVER_MISSING(user, name, reason),
);
