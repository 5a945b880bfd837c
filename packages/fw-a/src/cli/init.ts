import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { E_INVALID_VIEW_NAME, E_VIEW_EXISTS } from "../errors.js";
import { linkScaffoldDependencies, SCAFFOLD_DEPENDENCIES, writeScaffold, type ScaffoldResult } from "@fwkit/koa-host/cli";
import { kebabCase } from "routing-kernel/plugin";
import { skeletonFiles, viewFiles } from "./skeleton.js";

/** This package's folder (the target of the new app's `fw-a` dependency). */
export const frameworkDir = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/**
 * `fw-a gen:init`: writes the skeleton into `dir` (never overwriting) and links `node_modules/fw-a`
 * to this package (and the scaffold's other dependencies to the framework's copies), so the app
 * runs with no registry publish and no install step.
 */
export function initApp(dir: string): ScaffoldResult {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const name = kebabCase(basename(root)).replace(/[^a-z0-9-]/g, "") || "fw-a-app";
  const result = writeScaffold(root, skeletonFiles(name, frameworkDir));
  const link = join(root, "node_modules", "fw-a");
  if (!existsSync(link)) {
    mkdirSync(join(root, "node_modules"), { recursive: true });
    symlinkSync(frameworkDir, link, "dir");
  }
  linkScaffoldDependencies(root, frameworkDir, SCAFFOLD_DEPENDENCIES);
  return result;
}

/** `fw-a gen:view NAME`: a view module `views/NAME.ts` with its class and template. */
export function generateView(dir: string, name: string): ScaffoldResult {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) {
    throw new E_INVALID_VIEW_NAME(name);
  }
  const module = kebabCase(name);
  const className = module
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  const files = viewFiles(module, className);
  const result = writeScaffold(resolve(dir), files);
  if (result.written.length === 0) throw new E_VIEW_EXISTS(`views/${module}.ts`);
  return result;
}
