/**
 * Errors raised by the batteries' shared tools: a cluster primary that does not answer, and a
 * driver the app installed outside the range a battery supports.
 */
import { createError } from "routing-kernel";

/**
 * A cluster worker's request to its primary (the node's shared counters, a battery's primary part)
 * got no usable answer: the primary is gone, did not answer in time, or refused the request. The
 * caller fails closed (a login limit refuses) and logs it once as an outage.
 */
export const E_CLUSTER_PRIMARY_UNAVAILABLE = createError(
  "E_CLUSTER_PRIMARY_UNAVAILABLE",
  503,
  (reason: string) =>
    `This worker's cluster primary cannot serve it: ${reason}. Check the primary's log (start); the worker is replaced if the primary restarts it.`,
);

/** An optional driver the app installed is outside the range the battery that loads it supports. */
export const E_DRIVER_VERSION = createError(
  "E_DRIVER_VERSION",
  500,
  (user: string, name: string, version: string, range: string, dir: string) =>
    `The ${user} needs the package "${name}" in the range ${range}, but the app has ${name} ${version} (${dir}). Install a supported version in the app: npm install ${name}@"${range}"`,
);
