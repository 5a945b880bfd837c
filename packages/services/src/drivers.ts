/**
 * Loads the packages behind the backends (nodemailer, the AWS SDK, ioredis, flydrive, esbuild)
 * when an app first uses one, so importing `services` (and so every framework) does not load
 * drivers the app never configured. CommonJS packages are required rather than imported: under a
 * TypeScript loader (tsx in development) require() skips the loader's hooks, which would otherwise
 * handle every file of the package. A package that is missing or fails to load is reported as
 * `E_SERVICE_DRIVER_MISSING`, naming it and what needed it.
 */
import { createRequire } from "node:module";
import { E_SERVICE_DRIVER_MISSING } from "./errors.js";

// Resolves from this package, where the drivers are dependencies, whatever the app's folder.
const requireHere = createRequire(import.meta.url);

function missing(user: string, name: string, error: unknown): Error {
  // The first line names what is missing ("Cannot find module 'x'"); the rest is a require stack.
  const reason = String((error as Error | undefined)?.message ?? error).split("\n")[0]!;
  return Object.assign(new E_SERVICE_DRIVER_MISSING(user, name, reason), { cause: error });
}

/**
 * A CommonJS driver package, loaded synchronously on first call (node caches it after), for the
 * constructors that must stay synchronous. `user` says what needs it, e.g. "SMTP mail transport".
 */
export function requireDriver<T>(name: string, user: string): T {
  try {
    return requireHere(name) as T;
  } catch (error) {
    throw missing(user, name, error);
  }
}

/**
 * An ES module driver package, imported on first call. `load` is the literal `() => import("name")`
 * (so its types follow); failures become `E_SERVICE_DRIVER_MISSING` naming `name`.
 */
export async function importDriver<T>(name: string, user: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw missing(user, name, error);
  }
}
