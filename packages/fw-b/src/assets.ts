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

/** Where each folder under {@link ASSETS_PREFIX} comes from: fw-b's `static/`, and two npm packages. */
export function assetFolders(): Readonly<Record<string, string>> {
  return {
    "bootstrap-icons": join(dirname(require.resolve("bootstrap-icons/package.json")), "font"),
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
 * from the installed packages (no CDN), as folders the host serves with the app's static files.
 */
export function assetStaticFolders(): StaticFolder[] {
  return Object.entries(assetFolders()).map(([folder, dir]) => ({ prefix: `${ASSETS_PREFIX}${folder ? `/${folder}` : ""}`, dir }));
}
