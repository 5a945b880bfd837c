/**
 * The optional packages of the contrib modules (optional peer dependencies of fw-b): svg-captcha
 * for the built-in captcha, openid-client for OAuth sign-in. An app that switches a module on
 * installs its package; importing fw-b loads neither. {@link checkContribDrivers} finds them at
 * start-up (without loading them), the module loads its package on first use; a missing one is
 * `E_CONTRIB_DRIVER_MISSING` naming its `npm install`.
 */
import { createRequire } from "node:module";
import { driverLoader } from "@fwkit/koa-host/plugin";
import { E_CONTRIB_DRIVER_MISSING } from "../errors.js";
import type { ContribSettings } from "./config.js";

/** `requireDriver(name, user)` for CommonJS packages, `importDriver(name, user, () => import(name))` for ES modules. */
export const { requireDriver, importDriver } = driverLoader(import.meta.url, (user, name, reason) => new E_CONTRIB_DRIVER_MISSING(user, name, reason));

/** The package each contrib module needs, and how the error names the module. */
export const CONTRIB_DRIVERS = Object.freeze({
  captcha: Object.freeze({ name: "svg-captcha", user: "built-in captcha (contrib.captcha)" }),
  oauth: Object.freeze({ name: "openid-client", user: "OAuth sign-in (contrib.oauth)" }),
});

const requireHere = createRequire(import.meta.url);

/**
 * Throws `E_CONTRIB_DRIVER_MISSING` unless `name` can be found from fw-b's folder (where an app's
 * install puts its peers). Only resolves it: svg-captcha parses its font when loaded, so the
 * captcha still loads it at the first challenge. `resolve` is the lookup (tests pass a failing one).
 */
export function checkDriver(driver: { readonly name: string; readonly user: string }, resolve: (name: string) => string = (name) => requireHere.resolve(name)): void {
  try {
    resolve(driver.name);
  } catch (error) {
    const reason = String((error as Error | undefined)?.message ?? error).split("\n")[0]!;
    throw Object.assign(new E_CONTRIB_DRIVER_MISSING(driver.user, driver.name, reason), { cause: error });
  }
}

/**
 * The start-up check: the package of each contrib module that is on (the captcha only when it is
 * the built-in one, not a hosted service's `verifier`) must be installed.
 */
export function checkContribDrivers(settings: ContribSettings, resolve?: (name: string) => string): void {
  if (settings.captcha && !settings.captcha.verifier) checkDriver(CONTRIB_DRIVERS.captcha, resolve);
  if (settings.oauth) checkDriver(CONTRIB_DRIVERS.oauth, resolve);
}
