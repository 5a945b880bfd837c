import type { Middleware } from "koa";
import { loopbackOnly } from "../dev-access/index.js";
import type { HostPlugin } from "../plugin.js";
import { openApiConfigSchema } from "./config-schema.js";
import { openApiMiddleware, openApiSettings } from "./serve.js";
import { runtimeSources } from "./sources.js";

/**
 * The OpenAPI document of the app and its documentation page, as a plugin every host runs last:
 * its `openapi` config block is checked at start-up (in every environment), and when serving is on
 * (default: except in production) it answers the document's and the page's paths after the app's
 * own routes, so a view or hand-written route at the same path wins. On by default in development,
 * they answer only clients on this machine (`openapi.serve: true` or `devTools.remote` opens them).
 */
export function openApiPlugin(): HostPlugin {
  let answer: Middleware | undefined;
  let tools: string[] = [];
  return {
    name: "openapi",
    configKeys: openApiConfigSchema.configKeys,
    setup({ config, basePath, runtime }) {
      const settings = openApiSettings(config);
      if (!settings) return;
      // The sources are read on the first request for the document, so apps mounted later are in it.
      answer = openApiMiddleware(() => runtimeSources(runtime), settings, basePath);
      const block = (config as { openapi?: { serve?: boolean } }).openapi;
      // On by default in development, it is a development tool: this machine only. `serve: true` publishes it.
      if (config.env !== "development" || block?.serve === true) return;
      const paths = [settings.path, ...(settings.docsPath === false ? [] : [settings.docsPath.replace(/\/+$/, "")])];
      for (const path of paths) answer = loopbackOnly(basePath + path, config, answer);
      tools = paths.map((path) => `${basePath}${path} (OpenAPI)`);
    },
    phases: { fallback: () => (answer ? [answer] : []) },
    devTools: () => tools,
  };
}
