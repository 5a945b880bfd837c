/**
 * prom-client, loaded from the app's folder when metrics are on or the app defines its own (an
 * optional peer, like the tracing SDK): an app with metrics off, the default, installs none of it
 * (nor tdigest, bintrees and the `@opentelemetry/api` prom-client depends on).
 */
import type * as PromClient from "prom-client";
import { requireDriver } from "../drivers.js";

let loaded: typeof PromClient | undefined;

/** The app's `prom-client`, or `E_OBSERVABILITY_DRIVER_MISSING` naming its install command. */
export function promClient(): typeof PromClient {
  loaded ??= requireDriver<typeof PromClient>("prom-client", "metrics (metrics.enabled, or defineCounter and its kin)");
  return loaded;
}
