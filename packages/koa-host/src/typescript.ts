import { existsSync } from "node:fs";
import { join } from "node:path";
import { devToolUrl, importDevTool } from "./dev-tools.js";

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
 * tsx's ESM loader, found in `appRoot` (default: the working directory) or beside koa-host. A no-op
 * when a loader is already active (tests, `node --import tsx`).
 */
export function registerTypeScript(appRoot?: string): Promise<void> {
  registered ??= (async () => {
    if (process.env["FW_TS_LOADER"] === "active" || process.execArgv.join(" ").includes("tsx")) return;
    // A built app (app.js, no app.ts: a build folder or the image made from it) is JavaScript only:
    // its commands (start, migrate, the user's own) run without tsx, which production does not install.
    const root = appRoot ?? process.cwd();
    if (
      !["app.ts", "app.mts"].some((name) => existsSync(join(root, name))) &&
      ["app.js", "app.mjs"].some((name) => existsSync(join(root, name)))
    )
      return;
    if (preload) await import(preload);
    // tsx is a development dependency of the app: found there (or beside koa-host), or named.
    const api = await importDevTool<{ register: () => unknown }>(
      "tsx/esm/api",
      "TypeScript loader (views, config and models as .ts files)",
      appRoot,
    );
    api.register();
    process.env["FW_TS_LOADER"] = "active";
  })();
  return registered;
}

/** The `--import` argument that gives a child Node process the tsx loader (tsx found as {@link registerTypeScript} finds it). */
export function tsxImportArgument(): string {
  return `--import=${devToolUrl("tsx", "TypeScript loader of the development server")}`;
}
