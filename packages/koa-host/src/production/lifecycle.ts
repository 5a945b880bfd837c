// Whether this process is shutting down. One process serves one app in production, so the flag is
// the process's: set when a worker is told to stop, read by readiness and by every response.
let draining = false;

/** Marks the process as shutting down: readiness answers 503 and responses close their connection. */
export function markDraining(): void {
  draining = true;
}

/** True once the process is shutting down. */
export function isDraining(): boolean {
  return draining;
}

/** Clears the flag (tests that run a host after a shutdown in the same process). */
export function resetDraining(): void {
  draining = false;
}
