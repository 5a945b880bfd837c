import { mkdirSync } from "node:fs";
import { basename, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { E_VIEW_EXISTS } from "../errors.js";
import { appNameOf, checkViewName, keepExistingMigrations, linkNewApp, writeScaffold, type ScaffoldResult } from "@fwkit/cli";
import { kebabCase } from "routing-kernel/plugin";
import { skeletonFiles, viewFiles } from "./skeleton.js";

/** This package's folder (the target of the new app's `fw-a` dependency). */
export const frameworkDir = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/**
 * `fw-a gen:init`: writes the skeleton into `dir` (never overwriting) and links `node_modules/fw-a`
 * and `node_modules/.bin/fw-a` to this package (and the scaffold's dependencies and tools to the
 * framework's copies), so the app and its scripts run with no registry publish and no install step.
 */
export function initApp(dir: string, now: Date = new Date()): ScaffoldResult {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const result = writeScaffold(root, keepExistingMigrations(root, skeletonFiles(appNameOf(basename(root), "fw-a-app"), frameworkDir, now)));
  linkNewApp(root, { name: "fw-a", dir: frameworkDir });
  return result;
}

/** `fw-a gen:view NAME`: a view module `views/NAME.ts` (sub-folders too: `admin/users`) with its class and template. */
export function generateView(dir: string, name: string): ScaffoldResult {
  const className = checkViewName(name);
  const module = name.split("/").map(kebabCase).join("/");
  const result = writeScaffold(resolve(dir), viewFiles(module, className));
  if (result.written.length === 0) throw new E_VIEW_EXISTS(`views/${module}.ts`);
  return result;
}
