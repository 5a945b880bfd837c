/**
 * @module koa-host/cli
 * Plumbing both frameworks' CLIs share: loading the app entry, serving with reload, listing routes,
 * scaffolding without overwriting, user commands from `run/scripts.ts`, and error reporting.
 */
export { appTarget, finishCli, flagValue, frameworkCli, routesCommand, serveCommand } from "./commands.js";
export { findAppEntry, loadAppDefinition, type AppDefinition, type CreateOverrides } from "./app-definition.js";
export { buildCommand, deployCommand, startCommand } from "./production-commands.js";
export { releaseCommands, type ReleaseCommandNames } from "./release-commands.js";
export { deployFiles, deployTarget, haproxyConfig, nginxConfig, type DeployTarget, type HaproxyOptions } from "../production/deploy/index.js";
export { printRoutes } from "./routes.js";
export { runCli } from "./run-cli.js";
export { describeScaffold, keepExistingMigrations, linkNewApp, NODE_ENGINES, SCAFFOLD_DEPENDENCIES, SCAFFOLD_DEV_DEPENDENCIES, scaffoldDependencies, scaffoldDevDependencies, writeScaffold, type ScaffoldResult } from "./scaffold.js";
export { hasInstallStep, linkScaffoldDependencies, type LinkResult } from "./scaffold-links.js";
export { appNameOf, checkViewName, viewClassName } from "./scaffold-names.js";
export { serve, type ServeHandle, type ServeOptions } from "./serve.js";
export { preloadBeforeTypeScript, registerTypeScript, tsxImportArgument } from "./typescript.js";
export { loadUserCommands, userCommandsFor } from "./user-commands.js";
export { defineCommands, type ScriptCommand } from "../script-command.js";
