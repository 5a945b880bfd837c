/**
 * @module @fwkit/koa-host/operations
 * What the command line and the process runner (`@fwkit/cli`) take from the host: finding and
 * loading an app, the TypeScript loader, the development tools an app installs, the production
 * settings and readiness a serving process checks, the draining flag its shutdown sets, and
 * the route listing of the `routes` command. The primary's half of the node-wide counters and of
 * the batteries' primary parts is in `@fwkit/battery-kit/host`. The host never imports the command
 * line; the command line reaches the host only through this entry, the root and `./plugin`.
 */
export { findAppEntry, loadAppDefinition } from "./app-definition.js";
export { markAppFolder } from "./app-folder.js";
export { E_APP_NOT_FOUND } from "./errors.js";
export { formatRoutes, routeListing } from "./mounts.js";
export { devToolUrl, importDevTool, requireDevTool, resolveDevTool } from "./dev-tools.js";
export { openApiSettings } from "./openapi/index.js";
export { checkReadiness, type Readiness } from "./production/health.js";
export { isDraining, markDraining, resetDraining } from "./production/lifecycle.js";
export { PRODUCTION_DEFAULTS, productionSettings, type ProductionSettings } from "./production/settings.js";
export { preloadBeforeTypeScript, preloadedModule, registerTypeScript, tsxImportArgument } from "./typescript.js";
