import type { RouteTable } from "routing-kernel";
import { refreshRouteTypes } from "./write.js";

/**
 * The development server's call: refreshes the app's `types/routes.d.ts` when it exists and
 * reports a rewrite; a failure to write it is reported, never stops the server.
 */
export function refreshTypesQuietly(root: string, table: RouteTable, print: (line: string) => void): void {
  try {
    const result = refreshRouteTypes(root, table);
    if (result?.changed) print(`Route types refreshed: ${result.file}`);
  } catch (error) {
    print(`Could not refresh the route types (${(error as Error).message}); urlFor types may be stale.`);
  }
}
