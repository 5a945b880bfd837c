/**
 * @module @fwkit/app-kit
 * How a framework over the fwkit host is assembled, written once for every framework:
 * `defineFramework({ name, conventions, responder, configKeys, parts })` gives `createApp` and
 * `defineApp` with the shared app options, the batteries (`defineBattery`, their switches and
 * `autoMigrate`), mounting, and the base view class's helpers (`FrameworkView`). For framework
 * authors; apps import their framework.
 */
export {
  APP_OPTION_ALIASES,
  APP_OPTION_KEYS,
  mountApps,
  resolveAppOptions,
  trimBasePath,
  type AppOptionKey,
  type AppOptions,
} from "./app-options.js";
export {
  defineBattery,
  type AuthOptions,
  type Battery,
  type BatteryContext,
  type BatteryDeclaration,
} from "./battery.js";
export {
  allBatteries,
  batteryPlugins,
  batterySwitches,
  dataBattery,
  DEFAULT_BATTERIES,
  observabilityBattery,
  realtimeBattery,
  registerBattery,
  securityBattery,
  servicesBattery,
  type BatteryPlugins,
  type BatterySwitches,
} from "./batteries.js";
/** An app's own metrics, scraped with the framework's (docs/observability.md); re-exported by fw-a and fw-b. */
export { defineCounter, defineGauge, defineHistogram } from "@fwkit/observability";
export { DeliverMail, DeliverSignal, jobsBattery, type SignalDelivery } from "./jobs-battery.js";
/** `broadcast(channel, event, data)` to the app's realtime channels (docs/realtime.md); re-exported by fw-a and fw-b. */
export {
  broadcast,
  ChannelHandler,
  type AuthorizeInput,
  type ChannelDefinition,
  type ChannelHandlers,
  type PresenceMember,
  type ReceiveInput,
} from "@fwkit/realtime";
export { autoMigrates, FRAMEWORK_CONFIG_KEYS, frameworkConfigSchema, type FrameworkAppConfig } from "./config.js";
export { answerErrorPage, errorTemplateNames, type ErrorPageRenderer, type ErrorPageValues } from "./error-pages.js";
export * from "./errors.js";
export {
  defineFramework,
  type AppAssembly,
  type Framework,
  type FrameworkDefinition,
  type FrameworkParts,
} from "./framework.js";
export { FrameworkView } from "./view.js";
