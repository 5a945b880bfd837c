import { resolve } from "node:path";
import { loadConfig, type AppConfig, type CreateOverrides, type Host } from "@fwkit/koa-host";
import { loadAppDefinition, registerTypeScript } from "@fwkit/koa-host/operations";
import { setProcessRole } from "@fwkit/battery-kit/host";
import type { ProcessRole } from "@fwkit/battery-kit";

/** The options every framework command takes (`frameworkCli` declares them): `--root`, `--app`. */
export type AppArgs = { root?: unknown; app?: unknown };

/** The app folder (absolute) and app name a command's parsed arguments name. */
export function appOf(args: AppArgs): { root: string; appName?: string } {
  return { root: resolve(String(args.root)), ...(args.app ? { appName: String(args.app) } : {}) };
}

/**
 * The config of the app in `root` as a command reads it (`lib/config.ts` through the TypeScript
 * loader, then the environment), request logging off: what the migration, seed and user commands
 * of both frameworks start from, without building the app.
 */
export async function commandConfig(root: string): Promise<AppConfig> {
  await registerTypeScript();
  return loadConfig(root, { logRequests: false });
}

/** Runs `build` with this process in `role` (a `command` opens no metrics port), then restores the role it had. */
export async function inRole<T>(role: ProcessRole, build: () => Promise<T>): Promise<T> {
  const before = setProcessRole(role);
  try {
    return await build();
  } finally {
    setProcessRole(before);
  }
}

/**
 * Builds the app the arguments name (config loaded, plugins set up: database connected, models
 * bound), runs `work` with it and closes it afterwards, also when `work` throws: the body of a
 * command that needs the app (a worker, a console, a metrics dump). Request logging is off and
 * the log level `warn` unless `overrides.config` says otherwise. `role` is the process's while the
 * app runs: a `command` (the default) opens no metrics port, a `worker` opens its own (see
 * process-role.ts of battery-kit); the role is set while the app is built, when batteries read it.
 */
export async function withApp<T>(
  args: AppArgs,
  work: (app: Host) => T | Promise<T>,
  overrides: CreateOverrides = {},
  role: ProcessRole = "command",
): Promise<T> {
  const { root, appName } = appOf(args);
  const definition = await loadAppDefinition(root, appName);
  const app = await inRole(role, () =>
    definition.create({
      ...overrides,
      config: { logRequests: false, logLevel: "warn", ...overrides.config },
    }),
  );
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}
