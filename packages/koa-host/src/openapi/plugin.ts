import type { Middleware } from "koa";
import type { HostPlugin } from "../plugin.js";
import { OPENAPI_CONFIG_KEYS, openApiMiddleware, openApiSettings } from "./serve.js";
import { runtimeSources } from "./sources.js";

/**
 * The OpenAPI document of the app and its documentation page, as a plugin every host runs last:
 * its `openapi` config block is checked at start-up (in every environment), and when serving is on
 * (default: except in production) it answers the document's and the page's paths after the app's
 * own routes, so a view or hand-written route at the same path wins.
 */
export function openApiPlugin(): HostPlugin {
  let answer: Middleware | undefined;
  return {
    name: "openapi",
    configKeys: { openapi: OPENAPI_CONFIG_KEYS },
    setup({ config, basePath, runtime }) {
      const settings = openApiSettings(config);
      // The sources are read on the first request for the document, so apps mounted later are in it.
      if (settings) answer = openApiMiddleware(() => runtimeSources(runtime), settings, basePath);
    },
    fallbackMiddleware: () => (answer ? [answer] : []),
  };
}
