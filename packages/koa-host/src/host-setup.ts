/**
 * What `createHost` works out before the chain: the plugins' log fields, the config key check and
 * the template variables every responder gets.
 */
import type { Context } from "koa";
import type { RouteTable } from "routing-kernel";
import { environmentSections, type AppConfig } from "./config.js";
import { HOST_CONFIG_KEYS, mergeConfigKeys, validateConfigKeys, type ConfigKeys } from "./config-keys.js";
import type { HostOptions } from "./host-types.js";
import type { HostPlugin } from "./plugin.js";

/** The plugins' log fields as one pino mixin, or `undefined` when none adds any (lines then cost nothing extra). */
export function logFieldsOf(plugins: readonly HostPlugin[]): (() => Record<string, unknown>) | undefined {
  const sources = plugins
    .map((plugin) => plugin.logFields?.())
    .filter((fields): fields is () => Record<string, unknown> => fields !== undefined);
  if (sources.length === 0) return undefined;
  if (sources.length === 1) return sources[0];
  // pino calls a mixin with the line's own fields, its level and the logger: each source gets them.
  return (...line: unknown[]) =>
    Object.assign({}, ...sources.map((fields) => (fields as (...args: unknown[]) => object)(...line)));
}

/** An unknown key in the merged config or in any `environments` section stops the start. */
export function checkConfigKeys(
  config: AppConfig,
  framework: HostOptions["configKeys"],
  plugins: readonly HostPlugin[],
): void {
  const declared = Array.isArray(framework) ? framework : [framework as ConfigKeys | undefined];
  const keys = mergeConfigKeys(HOST_CONFIG_KEYS, ...declared, ...plugins.map((plugin) => plugin.configKeys));
  validateConfigKeys(config, keys, "in lib/config.ts, the environment or the app's config option");
  for (const [name, section] of Object.entries(environmentSections(config))) {
    validateConfigKeys(section, keys, `in environments.${name} of lib/config.ts`, config["appKeys"]);
  }
}

/** A request's template variables: `url_for`, `static`, `request`, `config`, `ctx` and every plugin's locals. */
export function templateLocals(
  config: AppConfig,
  table: RouteTable,
  basePath: string,
  plugins: readonly HostPlugin[],
): (ctx: Context) => Record<string, unknown> {
  const pluginLocals = plugins.filter((p) => p.locals).map((p) => p.locals!.bind(p));
  const urlFor = (
    target: string,
    methodOrParams?: string | Record<string, unknown>,
    params?: Record<string, unknown>,
  ) => basePath + table.urlFor(target, methodOrParams, params);
  // The plain static URL; the services battery replaces it with the content-hashed one.
  const staticUrl = (path: string) => `${basePath}${config.static.prefix}/${String(path).replace(/^\/+/, "")}`;
  return (ctx) => {
    const values: Record<string, unknown> = { url_for: urlFor, static: staticUrl, request: ctx.request, config, ctx };
    for (const local of pluginLocals) Object.assign(values, local(ctx));
    return values;
  };
}
