import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { E_APP_NOT_FOUND } from "@fwkit/koa-host";
import { findAppEntry, linkScaffoldDependencies, SCAFFOLD_DEPENDENCIES, scaffoldDependencies, scaffoldDevDependencies, writeScaffold, type ScaffoldResult } from "@fwkit/koa-host/cli";
import { kebabCase } from "routing-kernel/plugin";
import { E_INVALID_VIEW_NAME, E_VIEW_EXISTS } from "@fwkit/koa-host";
import { E_INVALID_NAV_TITLE } from "../errors.js";
import { nextNavOrder } from "./nav-order.js";
import { PACKAGE_ROOT, PACKAGE_TEMPLATES, SCAFFOLD_DIR } from "../paths.js";

/** File names in `scaffold/` that npm would drop or that would confuse tools, renamed on copy. */
const RENAMES: Readonly<Record<string, string>> = { _gitignore: ".gitignore", "package.json.tmpl": "package.json" };

/** The files of a new app (relative path -> content; a trailing `/` is a folder). */
export function skeletonFiles(appName: string, frameworkDir: string = PACKAGE_ROOT): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) {
        walk(full);
        continue;
      }
      const path = relative(SCAFFOLD_DIR, full).split(sep).join("/");
      const target = path.replace(/[^/]+$/, (name) => RENAMES[name] ?? name);
      // `.gitkeep` marks a folder to create, not a file to copy.
      if (entry === ".gitkeep") files[`${target.replace(/[^/]+$/, "")}`] = "";
      else files[target] = fill(readFileSync(full, "utf8"), appName, frameworkDir);
    }
  };
  walk(SCAFFOLD_DIR);
  // The validator the docs' examples import (issue 15.11) and the drivers of the default
  // configuration are dependencies of every new app; tsx, esbuild and pino-pretty development ones.
  const manifest = JSON.parse(files["package.json"]!) as { dependencies: Record<string, string>; devDependencies?: Record<string, string> };
  manifest.dependencies = { ...manifest.dependencies, ...scaffoldDependencies(PACKAGE_ROOT) };
  manifest.devDependencies = { ...manifest.devDependencies, ...scaffoldDevDependencies(PACKAGE_ROOT) };
  files["package.json"] = `${JSON.stringify(manifest, null, 2)}\n`;
  files["templates/layouts/default.pug"] = readFileSync(join(PACKAGE_TEMPLATES, "layouts", "default.pug"), "utf8");
  return files;
}

function fill(text: string, appName: string, frameworkDir: string): string {
  return text.replaceAll("{{name}}", appName).replaceAll("{{fwb}}", frameworkDir.replace(/[\\/]+$/, ""));
}

/** A package name from a folder name: `My Tea Shop` and `MyTeaShop` -> `my-tea-shop`. */
export function appNameOf(folder: string): string {
  const name = folder
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return name || "fw-b-app";
}

/**
 * `fw-b :init`: writes the skeleton into `dir` (never overwriting a file) and links
 * `node_modules/fw-b` (and `node_modules/.bin/fw-b`) to this package, so the app runs with no
 * registry publish and no install step.
 */
export function initApp(dir: string): ScaffoldResult {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const name = appNameOf(basename(root));
  const result = writeScaffold(root, skeletonFiles(name));
  const frameworkDir = PACKAGE_ROOT.replace(/[\\/]+$/, "");
  const link = join(root, "node_modules", "fw-b");
  if (!existsSync(link)) {
    mkdirSync(join(root, "node_modules"), { recursive: true });
    symlinkSync(frameworkDir, link, "dir");
  }
  const bin = join(root, "node_modules", ".bin", "fw-b");
  if (!existsSync(bin)) {
    mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
    symlinkSync(join("..", "fw-b", "bin", "fw-b.js"), bin);
  }
  linkScaffoldDependencies(root, frameworkDir, SCAFFOLD_DEPENDENCIES);
  return result;
}

const VIEW_NAME = /^[A-Za-z][A-Za-z0-9_-]*(\/[A-Za-z][A-Za-z0-9_-]*)*$/;

/** The class name `:addview` gives a module name: `blog-posts` and `admin/blog_posts` -> `BlogPosts`. */
export function viewClassName(name: string): string {
  const last = name.split("/").at(-1)!;
  return kebabCase(last)
    .split("-")
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/** Options of {@link addView}. */
export interface AddViewOptions {
  /** The menu position (`@navTitle` order, lower first); default: after the app's existing entries. */
  readonly order?: number;
}

/**
 * `fw-b :addview NAME [--order N]`: writes `views/NAME.ts` (a view class named after it, in the
 * menu after the existing entries unless an order is given) and its index template. Refuses
 * outside an app folder and when the view module exists.
 */
export function addView(dir: string, name: string, options: AddViewOptions = {}): ScaffoldResult {
  const root = resolve(dir);
  if (!findAppEntry(root)) throw new E_APP_NOT_FOUND(root, "there is no app.ts here; run fw-b :init first or pass --root");
  if (!VIEW_NAME.test(name)) throw new E_INVALID_VIEW_NAME(name, true);
  const module = name;
  const className = viewClassName(name);
  if (!className) throw new E_INVALID_VIEW_NAME(name, true);
  for (const extension of [".ts", ".mts", ".js", ".mjs"]) {
    const file = join(root, "views", `${module}${extension}`);
    if (existsSync(file)) throw new E_VIEW_EXISTS(relative(root, file));
  }
  if (options.order !== undefined && !Number.isFinite(options.order)) throw new E_INVALID_NAV_TITLE(`:addview ${name} --order`, "order must be a number");
  const order = options.order ?? nextNavOrder(root);
  return writeScaffold(root, {
    [`views/${module}.ts`]: `import { FwB } from "fw-b";
import { navTitle } from "fw-b/decorators";

/** Served at /${kebabCase(className)}; add methods for more pages (\`list()\` -> /${kebabCase(className)}/list). */
// order: its place in the menu, lower first (the scaffold's Home is 0).
@navTitle("${className}", { order: ${order} })
export class ${className} extends FwB {
  index() {
    return { title: "${className}" };
  }
}
`,
    [`templates/${module}/${className}/index.pug`]: `extends /layouts/default

block content
  h1= title
  p This page is templates/${module}/${className}/index.pug.
`,
  });
}
