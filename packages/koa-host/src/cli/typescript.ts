let registered: Promise<void> | undefined;

/**
 * Lets this process import TypeScript files (views, config, models) with no build step, through
 * tsx's ESM loader. A no-op when a loader is already active (tests, `node --import tsx`).
 */
export function registerTypeScript(): Promise<void> {
  registered ??= (async () => {
    if (process.env["FW_TS_LOADER"] === "active" || (process.execArgv.join(" ").includes("tsx"))) return;
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
