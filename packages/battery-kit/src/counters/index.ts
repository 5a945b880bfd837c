/**
 * Attempt counters with fixed windows: in one process's memory, and shared by the workers of one
 * node through the cluster primary (the login and rate limits of `start --workers`).
 */
export { clusterCounters, type ClusterCounters } from "./cluster.js";
export { WindowCounts, type CounterLimit, type TakeResult, type WindowCount } from "./window-counts.js";
