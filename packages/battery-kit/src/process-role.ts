/**
 * What this process builds an app for, set by the command line before it builds one: `serve` (a
 * web server, the default), `worker` (a job worker) or `command` (a one-off command: a listing,
 * the console, a script). A battery that holds something once per node asks it: the metrics port
 * belongs to the web server, a worker has a port of its own, and a command opens none, so each
 * runs beside `start` with the same environment.
 */

/** The roles of a process. */
export type ProcessRole = "serve" | "worker" | "command";

// On globalThis: one role per process, even when two copies of this module are loaded.
const ROLE: unique symbol = Symbol.for("fwkit.processRole");
const store = globalThis as typeof globalThis & { [ROLE]?: ProcessRole };

/** Sets this process's role; returns the one it had (to restore it). */
export function setProcessRole(role: ProcessRole): ProcessRole {
  const before = processRole();
  store[ROLE] = role;
  return before;
}

/** This process's role (`serve` unless the command line set another). */
export function processRole(): ProcessRole {
  return store[ROLE] ?? "serve";
}
