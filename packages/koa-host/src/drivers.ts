import { createRequire } from "node:module";

/** Loads a battery's optional packages on first use; see {@link driverLoader}. */
export interface DriverLoader {
  /** A CommonJS package, loaded synchronously on first call (node caches it after); `user` says what needs it. */
  requireDriver<T>(name: string, user: string): T;
  /** An ES module package, imported on first call; `load` is the literal `() => import("name")` (so its types follow). */
  importDriver<T>(name: string, user: string, load: () => Promise<T>): Promise<T>;
  /**
   * Checks at start-up that a package is installed without loading it (one that is costly to load
   * stays for its first use); `resolve` is the lookup (by default from the battery's folder).
   */
  checkDriver(name: string, user: string, resolve?: (name: string) => string): void;
}

/**
 * The loader of a battery's drivers (Redis, SMTP, S3, bcrypt...), so that importing the battery
 * (and so every framework) does not load packages an app never configured. `from` is the
 * battery's `import.meta.url`: packages resolve from there, where they are dependencies, whatever
 * the app's folder. CommonJS packages are required rather than imported: under a TypeScript loader
 * (tsx in development) require() skips the loader's hooks. A package that is missing or fails to
 * load becomes `missing(user, name, reason)`, the battery's own error, with the loader's error as
 * its cause.
 */
export function driverLoader(
  from: string,
  missing: (user: string, name: string, reason: string) => Error,
): DriverLoader {
  const requireHere = createRequire(from);
  const fail = (user: string, name: string, error: unknown): Error => {
    // The first line names what is missing ("Cannot find module 'x'"); the rest is a require stack.
    const reason = String((error as Error | undefined)?.message ?? error).split("\n")[0]!;
    return Object.assign(missing(user, name, reason), { cause: error });
  };
  return {
    requireDriver<T>(name: string, user: string): T {
      try {
        return requireHere(name) as T;
      } catch (error) {
        throw fail(user, name, error);
      }
    },
    async importDriver<T>(name: string, user: string, load: () => Promise<T>): Promise<T> {
      try {
        return await load();
      } catch (error) {
        throw fail(user, name, error);
      }
    },
    checkDriver(
      name: string,
      user: string,
      resolve: (name: string) => string = (target) => requireHere.resolve(target),
    ): void {
      try {
        resolve(name);
      } catch (error) {
        throw fail(user, name, error);
      }
    },
  };
}
