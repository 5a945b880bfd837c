import type { Host } from "../host.js";
import type { HostPlugin } from "../plugin.js";
import type { HostRuntime } from "../runtime.js";
import type { OpenApiSource } from "./document.js";
import type { OpenApiContribution } from "./types.js";

/** The plugins' OpenAPI parts (`HostPlugin.openApi()`), in plugin order. */
export function contributionsOf(plugins: readonly HostPlugin[]): OpenApiContribution[] {
  return plugins.map((plugin) => plugin.openApi?.()).filter((c): c is OpenApiContribution => c !== undefined);
}

/** The routes an app answers, its own and its mounted apps' (under their prefix), with their plugins' notes. */
export function openApiSources(host: Host, prefix = ""): OpenApiSource[] {
  const runtime = (host.koa.context as unknown as { runtime: HostRuntime }).runtime;
  const own: OpenApiSource = { routes: host.table.routes, prefix: prefix + runtime.basePath, contributions: contributionsOf(runtime.plugins) };
  return [own, ...host.mounts.flatMap((mounted) => openApiSources(mounted.host, prefix + runtime.basePath + mounted.prefix))];
}
