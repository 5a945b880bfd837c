/**
 * An app file that imports or requires by a name computed at run time (a plugin folder read by
 * the app itself) makes no bundle: esbuild leaves that import to Node, which would load the file it
 * names from disk, beside the bundle, with a second copy of the framework for it to extend. The
 * framework's own computed imports go through the host (`importAppModule`) or are drivers, and a
 * package's computed imports of absolute paths (knex's migration files) resolve the same from the
 * bundle.
 */
import { relative, resolve, sep } from "node:path";
import type { Message } from "esbuild";

/** esbuild's warnings for a computed `import()` or `require()`, which it reports only when asked. */
export const COMPUTED_IMPORT_WARNINGS = {
  "unsupported-dynamic-import": "warning",
  "unsupported-require-call": "warning",
} as const;

/**
 * `file:line` (relative to the app's build `appDir`, esbuild's working folder) of the first app
 * file with a computed import among a build's warnings, or undefined.
 */
export function computedImportInApp(warnings: readonly Message[], appDir: string): string | undefined {
  for (const warning of warnings) {
    if (!(warning.id in COMPUTED_IMPORT_WARNINGS) || !warning.location) continue;
    const fromApp = relative(appDir, resolve(appDir, warning.location.file));
    if (!fromApp.startsWith("..")) return `${fromApp.split(sep).join("/")}:${warning.location.line}`;
  }
  return undefined;
}
