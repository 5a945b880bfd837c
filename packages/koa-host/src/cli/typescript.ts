let registered: Promise<void> | undefined;
let preload: string | undefined;

/**
 * Names a module to import before the TypeScript loader is registered: a framework's executable
 * passes its own entry, so the framework and its dependencies load without going through the
 * loader's hooks (which resolve and load every module on another thread: a slower start-up).
 */
export function preloadBeforeTypeScript(moduleUrl: string): void {
  preload = moduleUrl;
}

/** The module {@link preloadBeforeTypeScript} named, if any (passed on to the dev server's child). */
export function preloadedModule(): string | undefined {
  return preload;
}

/**
 * Lets this process import TypeScript files (views, config, models) with no build step, through
 * tsx's ESM loader. A no-op when a loader is already active (tests, `node --import tsx`).
 */
export function registerTypeScript(): Promise<void> {
  registered ??= (async () => {
    if (process.env["FW_TS_LOADER"] === "active" || (process.execArgv.join(" ").includes("tsx"))) return;
    if (preload) await import(preload);
    const api = (await import("tsx/esm/api")) as { register: () => unknown };
    api.register();
    process.env["FW_TS_LOADER"] = "active";
  })();
  return registered;
}

/** The `--import` argument that gives a child Node process the tsx loader. */
export function tsxImportArgument(): string {
  return `--import=${import.meta.resolve("tsx")}`;
}
