/**
 * @module @fwkit/cli
 * The command line both frameworks share: the yargs base and its error reporting, serving with
 * reload, listing routes and writing route types, scaffolding without overwriting, user commands
 * from `run/scripts.ts`, build, the production runner (`start`), releases and deploy files.
 * `@fwkit/cli/commands` holds `defineCommands` alone, so an app that declares commands does not
 * load the command-line parser.
 */
export { appOf, commandConfig, withApp, type AppArgs } from "./app-args.js";
export {
  choicesKey,
  choicesSource,
  FIELD_TYPES,
  generateResource,
  inputSchemaSource,
  KNOWN_TYPES,
  labelOf,
  listSource,
  loadedSource,
  oneSource,
  outputName,
  outputSchemaSource,
  referencesOf,
  viewModels,
  parseFields,
  patchSchemaOf,
  resourceCommand,
  resourceNames,
  resourceTestFile,
  schemaOf,
  type Field,
  type FieldType,
  type Parent,
  type ResourceEdit,
  type ResourceNames,
  type ResourceResult,
  type ResourceScaffold,
  type ResourceOptions,
  LIVE_SCRIPT_STATIC,
  liveBroadcastSource,
  liveChannel,
  liveEventsPath,
  liveKey,
  liveListedSource,
} from "./generate/index.js";
export {
  consoleCommand,
  consoleContext,
  CONSOLE_HISTORY_FILE,
  startConsole,
  type ConsoleOptions,
} from "./console/index.js";
export { appTarget, finishCli, flagValue, frameworkCli, routesCommand, serveCommand } from "./commands.js";
export { findAppEntry, loadAppDefinition } from "@fwkit/koa-host/operations";
export { buildCommand, deployCommand, startCommand } from "./production-commands.js";
export { jobsCommands, type JobsCommandNames } from "./jobs/commands.js";
export { releaseCommands, type ReleaseCommandNames } from "./release-commands.js";
export {
  deployFiles,
  deployTarget,
  haproxyConfig,
  METRICS_PATH,
  METRICS_PORT,
  nginxConfig,
  prometheusConfig,
  type DeployTarget,
  type HaproxyOptions,
  type PrometheusOptions,
} from "./production/deploy/index.js";
export { printRoutes } from "./routes.js";
export { frameworkDependency, frameworkInCheckout, mergePackageJson } from "./app-init.js";
export { initCommand, nextSteps, type InitCommandSpec } from "./init-command.js";
export { runCli } from "./run-cli.js";
export {
  describeScaffold,
  keepExistingMigrations,
  linkNewApp,
  NODE_ENGINES,
  NODE_LTS,
  SCAFFOLD_ALLOW_SCRIPTS,
  SCAFFOLD_DEPENDENCIES,
  SCAFFOLD_DEV_DEPENDENCIES,
  SCAFFOLD_TYPESCRIPT,
  scaffoldDependencies,
  scaffoldDevDependencies,
  writeScaffold,
  type ScaffoldResult,
} from "./scaffold.js";
export {
  generateView,
  initApp,
  viewModulePath,
  type AppScaffold,
  type InitOptions,
  type InitResult,
  type ViewModuleNaming,
  type ViewScaffold,
} from "./generators.js";
export { hasInstallStep, linkScaffoldDependencies, type LinkResult } from "./scaffold-links.js";
export { appNameOf, checkViewName, viewClassName } from "./scaffold-names.js";
export { serve, type ServeHandle, type ServeOptions } from "./serve.js";
export { preloadBeforeTypeScript, registerTypeScript, tsxImportArgument } from "@fwkit/koa-host/operations";
export { loadUserCommands, userCommandsFor } from "./user-commands.js";
export { defineCommands, type ScriptCommand, type ScriptContext } from "./script-command.js";
