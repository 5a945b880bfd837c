/**
 * Loads the packages behind the features (bcrypt, argon2, jose, @koa/cors; koa-session and
 * koa-helmet when their middleware is made) when an app first uses one, so importing `security`
 * (and so every framework) stays cheap. CommonJS packages are required rather than imported: under
 * a TypeScript loader (tsx in development) require() skips the loader's hooks. A package that is
 * missing or fails to load is reported as `E_SECURITY_DRIVER_MISSING`, naming it and its user.
 */
import { createRequire } from "node:module";
import { E_SECURITY_DRIVER_MISSING } from "./errors.js";

// Resolves from this package, where the drivers are dependencies, whatever the app's folder.
const requireHere = createRequire(import.meta.url);

function missing(user: string, name: string, error: unknown): Error {
  // The first line names what is missing ("Cannot find module 'x'"); the rest is a require stack.
  const reason = String((error as Error | undefined)?.message ?? error).split("\n")[0]!;
  return Object.assign(new E_SECURITY_DRIVER_MISSING(user, name, reason), { cause: error });
}

/** A CommonJS package, loaded synchronously on first call (node caches it after); `user` says what needs it. */
export function requireDriver<T>(name: string, user: string): T {
  try {
    return requireHere(name) as T;
  } catch (error) {
    throw missing(user, name, error);
  }
}

/** An ES module package, imported on first call; `load` is the literal `() => import("name")`. */
export async function importDriver<T>(name: string, user: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw missing(user, name, error);
  }
}
