/**
 * The two generators both frameworks have, written once: a new app (`fw-a gen:init`, `fw-b :init`)
 * and a new view (`fw-a gen:view`, `fw-b :addview`). A framework gives its files; the rules are
 * here: the app's package name from its folder, never overwriting, keeping a migration that exists
 * under another stamp, linking the framework, refusing outside an app and over an existing view.
 */
import { existsSync, mkdirSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { E_APP_NOT_FOUND } from "@fwkit/koa-host/plugin";
import { findAppEntry } from "@fwkit/koa-host/operations";
import { kebabCase } from "routing-kernel/plugin";
import { E_VIEW_EXISTS } from "./errors.js";
import { keepExistingMigrations, linkNewApp, writeScaffold, type ScaffoldResult } from "./scaffold.js";
import { appNameOf, checkViewName } from "./scaffold-names.js";

/** What a framework's init command writes and links. */
export interface AppScaffold {
  /** The framework's package name, linked as `node_modules/<name>` and its `.bin` command. */
  readonly framework: string;
  /** The framework's package folder (the new app's `file:` dependency). */
  readonly frameworkDir: string;
  /** The files of a new app named `appName` (relative path -> content; a trailing `/` is a folder); migrations stamped `now`. */
  skeleton(appName: string, now: Date): Readonly<Record<string, string>>;
}

/**
 * Writes a new app into `dir` (created if missing; no file overwritten) and links it to its
 * framework and the framework's copies of the scaffold's dependencies, so the app and its scripts
 * run with no registry publish and no install step. The app's package name comes from the folder
 * (`My Tea Shop` -> `my-tea-shop`, `<framework>-app` when nothing is left).
 */
export function initApp(dir: string, scaffold: AppScaffold, now: Date = new Date()): ScaffoldResult {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const files = scaffold.skeleton(appNameOf(basename(root), `${scaffold.framework}-app`), now);
  const result = writeScaffold(root, keepExistingMigrations(root, files));
  linkNewApp(root, { name: scaffold.framework, dir: scaffold.frameworkDir.replace(/[\\/]+$/, "") });
  return result;
}

/**
 * How a view generator names a view's module from the name typed: `kebab-case` turns each segment
 * into kebab case (fw-a: `BlogPosts` -> `views/blog-posts.ts`), `as-typed` keeps it (fw-b:
 * `admin/user_accounts` -> `views/admin/user_accounts.ts`). The class name is the same rule for both.
 */
export type ViewModuleNaming = "kebab-case" | "as-typed";

/** The module path (under `views/`, no extension) a view name gets. */
export function viewModulePath(name: string, naming: ViewModuleNaming): string {
  return naming === "kebab-case" ? name.split("/").map(kebabCase).join("/") : name;
}

/** What a framework's view generator writes. */
export interface ViewScaffold {
  readonly naming: ViewModuleNaming;
  /** The view module and its templates, for the module path and class name the name gave. */
  files(module: string, className: string, root: string): Readonly<Record<string, string>>;
}

/**
 * Adds a view to the app in `dir`: checks the name (`E_INVALID_VIEW_NAME`), refuses outside an app
 * folder (`E_APP_NOT_FOUND`) and when the view's module exists under any extension
 * (`E_VIEW_EXISTS`; nothing is written), then writes the framework's files, never overwriting.
 */
export function generateView(dir: string, name: string, scaffold: ViewScaffold): ScaffoldResult {
  const root = resolve(dir);
  const className = checkViewName(name);
  if (!findAppEntry(root))
    throw new E_APP_NOT_FOUND(
      root,
      "there is no app.ts here; run the init command of your framework first, or pass --root",
    );
  const module = viewModulePath(name, scaffold.naming);
  for (const extension of [".ts", ".mts", ".js", ".mjs"]) {
    const file = join(root, "views", `${module}${extension}`);
    if (existsSync(file)) throw new E_VIEW_EXISTS(relative(root, file));
  }
  return writeScaffold(root, scaffold.files(module, className, root));
}
