/**
 * What the console puts in scope: the app and its config, `urlFor`, and what the batteries built
 * at start-up, found among the app's plugins by their shape (the CLI imports no battery): the data
 * plugin's models (each also under its own name, so `Note.all()` works and tab completes) and
 * knex, the services plugin's mailer, storage and cache.
 */
import type { Host } from "@fwkit/koa-host";
import { runtimeOf } from "@fwkit/koa-host/plugin";

interface DataLike {
  readonly name: "data";
  readonly models: Readonly<Record<string, unknown>>;
  readonly database: { readonly knex: unknown };
}

interface ServicesLike {
  readonly name: "services";
  readonly services: { readonly mailer: unknown; readonly storage: unknown; readonly cache: unknown };
}

/** A plugin whose models the console offers beside the app's (fw-b contrib's `User`). */
interface ConsoleModelsLike {
  consoleModels(): Readonly<Record<string, unknown>>;
}

const offersModels = (plugin: unknown): plugin is ConsoleModelsLike =>
  typeof (plugin as { consoleModels?: unknown }).consoleModels === "function";

/**
 * The models the console offers by name: the app's (the data plugin's), then those other plugins
 * offer (`consoleModels()`), an app's own model of the same name winning.
 */
export function consoleModels(plugins: readonly unknown[]): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const data = plugins.find(isData);
  if (data) Object.assign(found, data.models);
  for (const plugin of plugins.filter(offersModels)) {
    for (const [name, model] of Object.entries(plugin.consoleModels())) if (!(name in found)) found[name] = model;
  }
  return found;
}

const isData = (plugin: unknown): plugin is DataLike =>
  (plugin as { name?: unknown }).name === "data" && typeof (plugin as { models?: unknown }).models === "object";
const isServices = (plugin: unknown): plugin is ServicesLike =>
  (plugin as { name?: unknown }).name === "services" && typeof (plugin as { services?: unknown }).services === "object";

/** Reads a getter that throws when its battery is not configured (a mailer without MAIL_URL) as undefined. */
function tryRead<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** The variables of the console of `host`, by name; `models` lists the model names for the banner. */
export function consoleContext(host: Host): {
  readonly variables: Record<string, unknown>;
  readonly models: readonly string[];
} {
  const runtime = runtimeOf(host.koa.context);
  const basePath = runtime.basePath;
  const variables: Record<string, unknown> = {
    app: host,
    config: host.config,
    logger: host.logger,
    routes: host.table,
    urlFor: (target: string, methodOrParams?: string | Record<string, unknown>, params?: Record<string, unknown>) =>
      basePath + host.table.urlFor(target, methodOrParams, params),
  };
  const data = runtime.plugins.find(isData);
  const models: string[] = [];
  if (data) {
    variables["models"] = data.models;
    const knex = tryRead(() => data.database.knex);
    if (knex !== undefined) variables["knex"] = knex;
    for (const [name, model] of Object.entries(consoleModels(runtime.plugins))) {
      // A model never hides what the console itself offers (an export named `config`).
      if (name in variables) continue;
      variables[name] = model;
      models.push(name);
    }
  }
  const services = runtime.plugins.find(isServices);
  if (services) {
    variables["services"] = services.services;
    for (const [name, read] of [
      ["mail", () => services.services.mailer],
      ["storage", () => services.services.storage],
      ["cache", () => services.services.cache],
    ] as const) {
      const value = tryRead(read);
      if (value !== undefined) variables[name] = value;
    }
  }
  return { variables, models };
}
