import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { StaticFolder } from "@fwkit/koa-host/plugin";
import { PACKAGE_ROOT } from "./paths.js";

const require = createRequire(import.meta.url);

/**
 * The URL prefix of fw-b's own front-end files. Not under the app's `/static` prefix: the
 * services battery answers every path there from the app's `static/` folder.
 */
export const ASSETS_PREFIX = "/_fw-b";

/**
 * The icon font: the copy the build made in `dist/vendor/bootstrap-icons/` (scripts/copy-icon-font.mjs;
 * bootstrap-icons is only a devDependency, so a production install has nothing else), or, when fw-b
 * runs from its sources unbuilt (the repository's tests), the devDependency's `font/` folder.
 */
function iconFontFolder(): string {
  const built = join(PACKAGE_ROOT, "dist", "vendor", "bootstrap-icons");
  if (existsSync(join(built, "bootstrap-icons.min.css"))) return built;
  return join(dirname(require.resolve("bootstrap-icons/package.json")), "font");
}

/** Where each folder under {@link ASSETS_PREFIX} comes from: fw-b's `static/`, its icon font copy, and flexboxgrid. */
export function assetFolders(): Readonly<Record<string, string>> {
  return {
    "bootstrap-icons": iconFontFolder(),
    flexboxgrid: join(dirname(require.resolve("flexboxgrid/package.json")), "dist"),
    "": join(PACKAGE_ROOT, "static"),
  };
}

/** The stylesheet and script URLs the layouts link (no CDN: all served by the app). */
export function assetUrls(basePath = ""): Readonly<Record<string, string>> {
  const prefix = basePath + ASSETS_PREFIX;
  return Object.freeze({
    icons: `${prefix}/bootstrap-icons/bootstrap-icons.min.css`,
    grid: `${prefix}/flexboxgrid/flexboxgrid.min.css`,
    css: `${prefix}/fw-b.css`,
    js: `${prefix}/fw-b.js`,
  });
}

/**
 * The icon font (bootstrap-icons), the grid (flexboxgrid) and fw-b's theme files under `/_fw-b/`,
 * from fw-b's own files and the installed packages (no CDN), as folders the host serves with the app's static files.
 */
export function assetStaticFolders(): StaticFolder[] {
  return Object.entries(assetFolders()).map(([folder, dir]) => ({
    prefix: `${ASSETS_PREFIX}${folder ? `/${folder}` : ""}`,
    dir,
  }));
}
