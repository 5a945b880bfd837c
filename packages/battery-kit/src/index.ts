/**
 * @module @fwkit/battery-kit
 * The tools the batteries share, below the host: the telemetry channels a battery reports on, the
 * outage log of a backing service, the loader of a battery's optional drivers, the node's shared
 * rate counters and asks to the cluster primary, the process's role, cloud storage URLs, and the
 * errors they raise. Not the API of an app, nor what a framework author builds on
 * (`@fwkit/koa-host/plugin`).
 */
export {
  report,
  telemetry,
  traceCall,
  type ConnectionMessage,
  type JobDispatchMessage,
  type JobFailedMessage,
  type JobMessage,
  type LoginRefusedMessage,
  type MailMessage,
  type OutageMessage,
  type QueueMessage,
  type RealtimeBroadcastMessage,
  type RealtimeTelemetryMessage,
  type RenderMessage,
  type StorageMessage,
  type TracedMessage,
} from "./telemetry.js";
export {
  isOutageReported,
  markOutageReported,
  outageLog,
  watchConnection,
  type ConnectionEvents,
  type OutageLog,
  type OutageLogger,
  type OutageLogOptions,
} from "./outage-log.js";
export { importAppModule } from "./app-modules.js";
export { driverLoader, type DriverLoader } from "./drivers.js";
export {
  clusterCounters,
  WindowCounts,
  type ClusterCounters,
  type CounterLimit,
  type TakeResult,
  type WindowCount,
} from "./counters/index.js";
export { askPrimary, hasPrimaryParts, type PrimaryPartModule } from "./primary-parts.js";
export { processRole, type ProcessRole } from "./process-role.js";
export {
  GCS_ENV,
  readAzureBlobUrl,
  readGcsUrl,
  type AzureBlobLocation,
  type GcsLocation,
} from "./cloud-storage-url.js";
export { E_CLUSTER_PRIMARY_UNAVAILABLE, E_DRIVER_VERSION } from "./errors.js";
