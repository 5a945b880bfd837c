import { fileURLToPath } from "node:url";
import {
  generateView as generateKitView,
  initApp as initKitApp,
  type InitOptions,
  type InitResult,
  type ScaffoldResult,
} from "@fwkit/cli";
import { skeletonFiles, viewFiles } from "./skeleton.js";

/** This package's folder (the target of the new app's `fw-a` dependency). */
export const frameworkDir = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/**
 * `fw-a gen:init`: writes the skeleton into `dir` (never overwriting; an existing package.json is
 * merged). From a checkout it links `node_modules/fw-a` and `node_modules/.bin/fw-a` to this
 * package (and the scaffold's dependencies and tools to the framework's copies), so the app and its
 * scripts run with no registry publish and no install step; from an installed fw-a (or with
 * `registry: true`) the app asks for fw-a's registry version.
 */
export function initApp(dir: string, now: Date = new Date(), options: InitOptions = {}): InitResult {
  return initKitApp(
    dir,
    { framework: "fw-a", frameworkDir, skeleton: (appName, stamp) => skeletonFiles(appName, frameworkDir, stamp) },
    now,
    options,
  );
}

/** `fw-a gen:view NAME`: a view module `views/NAME.ts` (sub-folders too: `admin/users`; kebab-cased) with its class and template. */
export function generateView(dir: string, name: string): ScaffoldResult {
  return generateKitView(dir, name, { naming: "kebab-case", files: viewFiles });
}
