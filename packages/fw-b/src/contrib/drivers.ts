/**
 * The optional packages of the contrib modules (optional peer dependencies of fw-b): svg-captcha
 * for the built-in captcha, openid-client for OAuth sign-in. An app that switches a module on
 * installs its package; importing fw-b loads neither. {@link checkContribDrivers} finds them at
 * start-up (without loading them), the module loads its package on first use; a missing one is
 * `E_CONTRIB_DRIVER_MISSING` naming its `npm install`.
 */
import { driverLoader } from "@fwkit/battery-kit";
import { E_CONTRIB_DRIVER_MISSING } from "../errors.js";
import type { ContribSettings } from "./config.js";

/** `requireDriver(name, user)` for CommonJS packages, `importDriver<typeof import("name")>(name, user)` for ES modules, `checkDriver` at start-up. */
export const { requireDriver, importDriver, checkDriver } = driverLoader(
  import.meta.url,
  (user, name, reason) => new E_CONTRIB_DRIVER_MISSING(user, name, reason),
);

/** The package each contrib module needs, and how the error names the module. */
export const CONTRIB_DRIVERS = Object.freeze({
  captcha: Object.freeze({ name: "svg-captcha", user: "built-in captcha (contrib.captcha)" }),
  oauth: Object.freeze({ name: "openid-client", user: "OAuth sign-in (contrib.oauth)" }),
});

/**
 * The start-up check: the package of each contrib module that is on (the captcha only when it is
 * the built-in one, not a hosted service's `verifier`) must be installed; `resolve` is the lookup
 * (tests pass a failing one).
 */
export function checkContribDrivers(settings: ContribSettings, resolve?: (name: string) => string): void {
  // Only resolved: svg-captcha parses its font when loaded, so it still loads at the first challenge.
  if (settings.captcha && !settings.captcha.verifier)
    checkDriver(CONTRIB_DRIVERS.captcha.name, CONTRIB_DRIVERS.captcha.user, resolve);
  if (settings.oauth) checkDriver(CONTRIB_DRIVERS.oauth.name, CONTRIB_DRIVERS.oauth.user, resolve);
}
