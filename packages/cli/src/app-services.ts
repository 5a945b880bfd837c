/**
 * The app's services as code outside a request reaches them (an app command of run/scripts.ts):
 * the services plugin's `services`, found among the app's plugins by its shape (the CLI imports no
 * battery), typed by `AppServices` of `@fwkit/koa-host`.
 */
import type { AppServices, Host } from "@fwkit/koa-host";
import { runtimeOf } from "@fwkit/koa-host/plugin";
import { E_COMMAND_OPTION } from "./errors.js";

/** The services of `host`, or an object that says why there are none when one is asked for. */
export function appServicesOf(host: Host): AppServices {
  const plugin = runtimeOf(host.koa.context).plugins.find(
    (candidate) =>
      (candidate as { name?: unknown }).name === "services" &&
      typeof (candidate as { services?: unknown }).services === "object",
  ) as { services: AppServices } | undefined;
  if (plugin) return plugin.services;
  return new Proxy(
    {},
    {
      get(_target, key) {
        // Inspection (util.inspect, await) must not throw.
        if (typeof key === "symbol" || key === "then" || key === "toJSON") return undefined;
        throw new E_COMMAND_OPTION(`services.${key}: batteries.services`, "on (the app's services live there)", false);
      },
    },
  ) as AppServices;
}
