/**
 * @module @fwkit/battery-kit/host
 * What the processes that run an app use, not the batteries: the app folder the batteries' drivers
 * resolve from, the process's role, the package lookup the host's development tools share with the
 * driver loader, and the cluster primary's side of the shared counters and primary parts (the
 * command line's cluster runner answers its workers with them).
 */
export { registerBundledModules, servesBundledModules, type BundledModuleLoader } from "./app-modules.js";
export { driverRoot, setDriverRoot } from "./driver-location.js";
export { setProcessRole } from "./process-role.js";
export {
  importTarget,
  packageDirFrom,
  packageOf,
  readManifest,
  subpathOf,
  type PackageManifest,
} from "./package-lookup.js";
export { answerCounterRequest, CLUSTER_COUNTERS_ENV, type CounterAnswer } from "./counters/cluster.js";
export { answerPartRequest, PRIMARY_PARTS_ENV, type PartAnswer } from "./primary-parts.js";
