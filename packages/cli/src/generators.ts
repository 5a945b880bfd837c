/**
 * The two generators both frameworks have, written once: a new app (`fw-a gen:init`, `fw-b :init`)
 * and a new view (`fw-a gen:view`, `fw-b :addview`). A framework gives its files; the rules are
 * here: the app's package name from its folder, never overwriting, keeping a migration that exists
 * under another stamp, linking the framework, refusing outside an app and over an existing view.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { E_APP_NOT_FOUND } from "@fwkit/koa-host/operations";
import { findAppEntry } from "@fwkit/koa-host/operations";
import { kebabCase } from "routing-kernel/plugin";
import { frameworkDependency, frameworkInCheckout, mergePackageJson } from "./app-init.js";
import { E_VIEW_EXISTS } from "./errors.js";
import {
  keepExistingMigrations,
  linkNewApp,
  NODE_LTS,
  SCAFFOLD_ALLOW_SCRIPTS,
  writeScaffold,
  type ScaffoldResult,
} from "./scaffold.js";
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

/** Options of {@link initApp}. */
export interface InitOptions {
  /**
   * Depend on the framework's registry version (`"fw-a": "^0.1.0"`) and link nothing, instead of
   * a `file:` link to the framework's folder. Default: on unless the framework is a checkout of
   * its repository (see app-init.ts).
   */
  readonly registry?: boolean;
}

/** What {@link initApp} did. */
export interface InitResult extends ScaffoldResult {
  /** Files that existed and were merged into (package.json), with what changed. */
  readonly updated: readonly string[];
  /** Whether the app asks for the framework's registry version (and so needs `npm install` first). */
  readonly registry: boolean;
}

/**
 * Writes a new app into `dir` (created if missing; no file overwritten, an existing package.json
 * merged) and, from a checkout, links it to its framework and the framework's copies of the
 * scaffold's dependencies, so the app and its scripts run with no registry publish and no install
 * step; from an installed framework the app asks for its registry version and links nothing. The
 * app's package name comes from the folder (`My Tea Shop` -> `my-tea-shop`, `<framework>-app`
 * when nothing is left).
 */
export function initApp(
  dir: string,
  scaffold: AppScaffold,
  now: Date = new Date(),
  options: InitOptions = {},
): InitResult {
  const root = resolve(dir);
  const frameworkDir = scaffold.frameworkDir.replace(/[\\/]+$/, "");
  const registry = options.registry ?? !frameworkInCheckout(frameworkDir);
  const files: Record<string, string> = {
    // The Node.js line nvm, fnm, Volta and CI's setup-node pick for the app: the current LTS.
    ".nvmrc": `${NODE_LTS}\n`,
    ...scaffold.skeleton(appNameOf(basename(root), `${scaffold.framework}-app`), now),
  };
  const manifest = files["package.json"];
  const updated: string[] = [];
  if (manifest !== undefined) {
    const parsed = JSON.parse(manifest) as { dependencies?: Record<string, string>; allowScripts?: object };
    parsed.dependencies = { ...parsed.dependencies, [scaffold.framework]: frameworkDependency(frameworkDir, registry) };
    parsed.allowScripts = { ...SCAFFOLD_ALLOW_SCRIPTS, ...parsed.allowScripts };
    files["package.json"] = `${JSON.stringify(parsed, null, 2)}\n`;
    const existing = join(root, "package.json");
    if (existsSync(existing)) {
      const { text, changes } = mergePackageJson(existing, readFileSync(existing, "utf8"), files["package.json"]);
      if (changes.length > 0) {
        writeFileSync(existing, text);
        updated.push(`package.json (${changes.join("; ")})`);
      }
      delete files["package.json"];
    }
  }
  mkdirSync(root, { recursive: true });
  const result = writeScaffold(root, keepExistingMigrations(root, files));
  if (!registry) linkNewApp(root, { name: scaffold.framework, dir: frameworkDir });
  return { ...result, updated, registry };
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
