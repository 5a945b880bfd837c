import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { migrationTimestamp } from "@fwkit/data/plugin";
import {
  appNameOf as kitAppNameOf,
  generateView,
  initApp as initKitApp,
  NODE_ENGINES,
  scaffoldDependencies,
  scaffoldDevDependencies,
  type InitOptions,
  type InitResult,
  type ScaffoldResult,
} from "@fwkit/cli";
import { kebabCase } from "routing-kernel/plugin";
import { E_INVALID_NAV_TITLE } from "../errors.js";
import { nextNavOrder } from "./nav-order.js";
import { PACKAGE_ROOT, PACKAGE_TEMPLATES, SCAFFOLD_DIR } from "../paths.js";

/**
 * File names in `scaffold/` that npm would drop or that would confuse tools, renamed on copy; a
 * `.tmpl` suffix is dropped (`package.json.tmpl`, and `test/app.test.ts.tmpl`: a test file of the
 * new app, which the published package must not ship as one of its own).
 */
const RENAMES: Readonly<Record<string, string>> = { _gitignore: ".gitignore" };
const renamed = (name: string): string => RENAMES[name] ?? name.replace(/\.tmpl$/, "");

/**
 * The files of a new app (relative path -> content; a trailing `/` is a folder). Migrations are
 * stamped with the scaffold's time (`now`), so migrations made later sort after them.
 */
export function skeletonFiles(
  appName: string,
  frameworkDir: string = PACKAGE_ROOT,
  now: Date = new Date(),
): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) {
        walk(full);
        continue;
      }
      const path = relative(SCAFFOLD_DIR, full).split(sep).join("/");
      const target = path.replace(/[^/]+$/, renamed).replace(/^(migrations\/)\d{14}_/, `$1${migrationTimestamp(now)}_`);
      // `.gitkeep` marks a folder to create, not a file to copy.
      if (entry === ".gitkeep") files[`${target.replace(/[^/]+$/, "")}`] = "";
      else files[target] = fill(readFileSync(full, "utf8"), appName, frameworkDir);
    }
  };
  walk(SCAFFOLD_DIR);
  // The validator the docs' examples import and the drivers of the default
  // configuration are dependencies of every new app; tsx, esbuild and pino-pretty development ones.
  const manifest = JSON.parse(files["package.json"]!) as {
    dependencies: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  manifest.dependencies = { ...manifest.dependencies, ...scaffoldDependencies(PACKAGE_ROOT) };
  manifest.devDependencies = { ...manifest.devDependencies, ...scaffoldDevDependencies(PACKAGE_ROOT) };
  (manifest as { engines?: unknown }).engines = { node: NODE_ENGINES };
  files["package.json"] = `${JSON.stringify(manifest, null, 2)}\n`;
  files["templates/layouts/default.pug"] = readFileSync(join(PACKAGE_TEMPLATES, "layouts", "default.pug"), "utf8");
  return files;
}

function fill(text: string, appName: string, frameworkDir: string): string {
  return text.replaceAll("{{name}}", appName).replaceAll("{{fwb}}", frameworkDir.replace(/[\\/]+$/, ""));
}

/** A package name from a folder name: `My Tea Shop` and `MyTeaShop` -> `my-tea-shop` (the kit's rule). */
export function appNameOf(folder: string): string {
  return kitAppNameOf(folder, "fw-b-app");
}

/**
 * `fw-b :init`: writes the skeleton into `dir` (never overwriting a file; an existing package.json
 * is merged). From a checkout it links `node_modules/fw-b` (and `node_modules/.bin/fw-b`) to this
 * package, so the app runs with no registry publish and no install step; from an installed fw-b
 * (or with `registry: true`) the app asks for fw-b's registry version.
 */
export function initApp(dir: string, now: Date = new Date(), options: InitOptions = {}): InitResult {
  return initKitApp(
    dir,
    {
      framework: "fw-b",
      frameworkDir: PACKAGE_ROOT,
      skeleton: (appName, stamp) => skeletonFiles(appName, PACKAGE_ROOT, stamp),
    },
    now,
    options,
  );
}

export { viewClassName } from "@fwkit/cli";

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
  return generateView(dir, name, {
    naming: "as-typed",
    files: (module, className, root) => viewFiles(module, className, navOrder(root, name, options)),
  });
}

/** The menu order of a new view: the one given (a number), else after the app's existing entries. */
function navOrder(root: string, name: string, options: AddViewOptions): number {
  if (options.order !== undefined && !Number.isFinite(options.order))
    throw new E_INVALID_NAV_TITLE(`:addview ${name} --order`, "order must be a number");
  return options.order ?? nextNavOrder(root);
}

/** The files of a new view: its module (in the menu at `order`) and its index template. */
function viewFiles(module: string, className: string, order: number): Record<string, string> {
  return {
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
  };
}
