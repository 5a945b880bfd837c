/**
 * A job's `context.services`: the app's services the framework hands the queue as `locals.services`,
 * typed by `AppServices` of `@fwkit/koa-host` (filled in by the services battery).
 */
import type { AppServices } from "@fwkit/koa-host";
import { E_JOB_OPTION_INVALID } from "./errors.js";

/** The services in `locals`, or an object that says why there are none when a job asks for one. */
export function servicesOf(locals: Readonly<Record<string, unknown>>): AppServices {
  const given = locals["services"];
  if (typeof given === "object" && given !== null) return given as AppServices;
  return new Proxy(
    {},
    {
      get(_target, key) {
        // Inspection (util.inspect, await) must not throw.
        if (typeof key === "symbol" || key === "then" || key === "toJSON") return undefined;
        throw new E_JOB_OPTION_INVALID(
          `context.services.${key}`,
          "batteries.services",
          "on (the app's services live there)",
          false,
        );
      },
    },
  ) as AppServices;
}
