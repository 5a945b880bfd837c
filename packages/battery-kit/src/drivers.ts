import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { batteryOf, driverRoot, locateDriver, type Battery, type DriverLocation } from "./driver-location.js";
import { importTarget, packageOf, readManifest, subpathOf } from "./package-lookup.js";

/** Loads a battery's optional packages on first use; see {@link driverLoader}. */
export interface DriverLoader {
  /** A CommonJS package, loaded synchronously on first call (node caches it after); `user` says what needs it. */
  requireDriver<T>(name: string, user: string): T;
  /** An ES module package (`T` is `typeof import("name")`), imported on first call. */
  importDriver<T>(name: string, user: string): Promise<T>;
  /**
   * Checks at start-up that a package is installed (and, for an optional peer, in the battery's
   * range) without loading it (one that is costly to load stays for its first use); `resolve`
   * replaces the lookup (tests pass a failing one).
   */
  checkDriver(name: string, user: string, resolve?: (name: string) => string): void;
}

/**
 * The loader of a battery's drivers (Redis, SMTP, S3, bcrypt...), so that importing the battery
 * (and so every framework) does not load packages an app never configured. `from` is the
 * battery's `import.meta.url`. The battery's optional peer dependencies resolve from the app's
 * folder and must be in the battery's peer range (`E_DRIVER_VERSION`); its own dependencies
 * resolve from the battery (see driver-location.ts). CommonJS packages are required rather than
 * imported: under a TypeScript loader (tsx in development) require() skips the loader's hooks. A
 * package that is missing or fails to load becomes `missing(user, name, reason)`, the battery's
 * own error, with the loader's error as its cause.
 */
export function driverLoader(
  from: string,
  missing: (user: string, name: string, reason: string) => Error,
): DriverLoader {
  let battery: Battery | undefined;
  // Per app folder and package: the lookup and version check run once, not on every call.
  const located = new Map<string, DriverLocation>();
  const fail = (user: string, name: string, error: unknown): Error => {
    // The first line names what is missing ("Cannot find module 'x'"); the rest is a require stack.
    const reason = String((error as Error | undefined)?.message ?? error).split("\n")[0]!;
    return Object.assign(missing(user, name, reason), { cause: error });
  };
  const locate = (specifier: string, user: string): DriverLocation => {
    const key = `${driverRoot()}\0${packageOf(specifier)}`;
    const known = located.get(key);
    if (known) return known;
    battery ??= batteryOf(from);
    const { location, reason } = locateDriver(battery, specifier, user);
    if (!location) throw fail(user, specifier, new Error(`Cannot find package '${packageOf(specifier)}': ${reason}`));
    located.set(key, location);
    return location;
  };
  return {
    requireDriver<T>(name: string, user: string): T {
      const location = locate(name, user);
      try {
        return createRequire(join(location.base, "noop.js"))(name) as T;
      } catch (error) {
        throw fail(user, name, error);
      }
    },
    async importDriver<T>(name: string, user: string): Promise<T> {
      const location = locate(name, user);
      try {
        const target = importTarget(readManifest(location.dir), subpathOf(name));
        if (target === undefined) throw new Error(`${location.dir} exports no ${subpathOf(name)} to import`);
        return (await import(pathToFileURL(join(location.dir, target)).href)) as T;
      } catch (error) {
        throw fail(user, name, error);
      }
    },
    checkDriver(name: string, user: string, resolve?: (name: string) => string): void {
      if (resolve === undefined) {
        locate(name, user);
        return;
      }
      try {
        resolve(name);
      } catch (error) {
        throw fail(user, name, error);
      }
    },
  };
}
