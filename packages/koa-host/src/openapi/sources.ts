import type { HostPlugin, HostRuntime } from "../plugin.js";
import type { OpenApiSource } from "./document.js";
import type { OpenApiContribution } from "./types.js";

/** The plugins' OpenAPI parts (`HostPlugin.openApi()`), in plugin order. */
export function contributionsOf(plugins: readonly HostPlugin[]): OpenApiContribution[] {
  return plugins.map((plugin) => plugin.openApi?.()).filter((c): c is OpenApiContribution => c !== undefined);
}

/** The routes an app answers, its own and its mounted apps' (under their prefix), with their plugins' notes. */
export function openApiSources(host: { readonly runtime: HostRuntime }, prefix = ""): OpenApiSource[] {
  return runtimeSources(host.runtime, prefix);
}

/** {@link openApiSources} of an app's runtime. */
export function runtimeSources(runtime: HostRuntime, prefix = ""): OpenApiSource[] {
  const own: OpenApiSource = {
    routes: runtime.table.routes,
    prefix: prefix + runtime.basePath,
    contributions: contributionsOf(runtime.plugins),
  };
  return [
    own,
    ...runtime.mounts.flatMap((mounted) => runtimeSources(mounted.runtime, prefix + runtime.basePath + mounted.prefix)),
  ];
}
