import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Middleware } from "koa";
import type { AppConfig } from "../config.js";
import { resolveDevTool } from "../dev-tools.js";
import { escapeHtml as esc } from "../escape/index.js";
import { openApiDocument, type OpenApiSource } from "./document.js";
import { checkOpenApiOptions } from "./options.js";
import type { ConfigKeys } from "../config-schema/keys.js";
import { type OpenApiConfig, openApiConfigSchema } from "./config-schema.js";
import type { OpenApiObject } from "./types.js";

export type { OpenApiConfig } from "./config-schema.js";

/** The config keys of the `openapi` block (declared by the OpenAPI plugin). */
export const OPENAPI_CONFIG_KEYS: ConfigKeys = openApiConfigSchema.configKeys["openapi"] as ConfigKeys;

/** The `openapi` block with its defaults, or undefined when nothing is served. */
export function openApiSettings(
  config: AppConfig,
): (OpenApiConfig & { readonly path: string; readonly docsPath: string | false }) | undefined {
  const given = ((config as { openapi?: OpenApiConfig }).openapi ?? {}) as OpenApiConfig;
  // Checked even when nothing is served, so a mistake shows at start-up in every environment.
  const { serve, path, docsPath } = openApiConfigSchema.resolveKey("openapi", config, { env: {} });
  const { serve: _serve, path: _path, docsPath: _docsPath, ...generator } = given;
  const checked = checkOpenApiOptions(generator, "the openapi config block");
  if (!(serve ?? config.env !== "production")) return undefined;
  const appName = (config as { appName?: unknown }).appName;
  return {
    ...checked,
    title: checked.title ?? (typeof appName === "string" ? appName : "API"),
    path,
    docsPath,
  };
}

/** Swagger UI's files, from the swagger-ui-dist package (npm), never a CDN. */
const ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

/** The init script: a file, not inline, so a strict Content-Security-Policy still runs it. */
const INIT_SCRIPT = `window.addEventListener("load", function () {
  var el = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({ url: el.getAttribute("data-url"), dom_id: "#swagger-ui" });
});
`;

function page(title: string, base: string, documentUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${esc(title)}</title><link rel="stylesheet" href="${esc(base)}/swagger-ui.css"></head>
<body><div id="swagger-ui" data-url="${esc(documentUrl)}"></div>
<script src="${esc(base)}/swagger-ui-bundle.js"></script><script src="${esc(base)}/init.js"></script></body>
</html>
`;
}

/**
 * Serves the OpenAPI document (JSON, made once on first request) and, unless `docsPath` is false,
 * a Swagger UI page and its files from the swagger-ui-dist package. Runs after the app's routes,
 * so a view or hand-written route at the same path wins.
 */
export function openApiMiddleware(
  sources: () => readonly OpenApiSource[],
  settings: OpenApiConfig & { readonly path: string; readonly docsPath: string | false },
  basePath = "",
): Middleware {
  let document: Promise<OpenApiObject> | undefined;
  const documentPath = basePath + settings.path;
  const docsPath = settings.docsPath === false ? undefined : basePath + settings.docsPath.replace(/\/+$/, "");
  let assetsDir: string | undefined;
  return async (ctx, next) => {
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return next();
    if (ctx.path === documentPath) {
      document ??= openApiDocument(sources(), settings).then((result) => result.document);
      ctx.type = "application/json";
      ctx.body = await document;
      return;
    }
    if (!docsPath) return next();
    if (ctx.path === docsPath || ctx.path === `${docsPath}/`) {
      ctx.type = "text/html; charset=utf-8";
      ctx.body = page(settings.title ?? "API", docsPath, documentPath);
      return;
    }
    if (!ctx.path.startsWith(`${docsPath}/`)) return next();
    const name = ctx.path.slice(docsPath.length + 1);
    if (name === "init.js") {
      ctx.type = "text/javascript; charset=utf-8";
      ctx.body = INIT_SCRIPT;
      return;
    }
    const type = ASSETS[name];
    if (!type) return next();
    // swagger-ui-dist is a development dependency of the app (the page is off in production unless
    // turned on): found in the app, or E_DEV_TOOL_MISSING naming its install command.
    assetsDir ??= dirname(resolveDevTool("swagger-ui-dist/package.json", "OpenAPI documentation page"));
    ctx.type = type;
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.body = await readFile(join(assetsDir, name));
  };
}

declare module "../config.js" {
  interface AppConfig {
    /** Serving the OpenAPI document and its documentation page (see {@link OpenApiConfig}). */
    readonly openapi?: OpenApiConfig;
  }
}
