/**
 * The plugins in the order every phase runs them: the given order, except that a plugin comes
 * after those its `after` names. Checked once at start-up, with the phases each plugin joins.
 */
import { E_PLUGIN_ORDER, E_PLUGIN_PHASE_UNKNOWN } from "./errors.js";
import { HOST_PHASES, type HostPlugin } from "./plugin.js";

/** The hooks a plugin gave before phases existed, with the phase that replaced each. */
const MOVED_HOOKS: Readonly<Record<string, string>> = {
  frontMiddleware: "front",
  staticFolders: "static",
  middleware: "request",
  preflightMiddleware: "preflight",
  routeMiddleware: "route",
  fallbackMiddleware: "fallback",
};

/**
 * Checks every plugin's phases and `after`, and returns the plugins in phase order (a stable
 * topological order: a plugin moves only when something it needs comes later).
 * @internal the host calls it; not exported from the package.
 */
export function orderPlugins(plugins: readonly HostPlugin[]): HostPlugin[] {
  const known = HOST_PHASES.join(", ");
  for (const plugin of plugins) {
    // Written in JavaScript, an old hook would silently never run: refuse it, naming its phase.
    for (const [hook, phase] of Object.entries(MOVED_HOOKS)) {
      if (typeof (plugin as unknown as Record<string, unknown>)[hook] === "function") {
        throw new E_PLUGIN_PHASE_UNKNOWN(plugin.name, `${hook} (now phases.${phase})`, known);
      }
    }
    for (const phase of Object.keys(plugin.phases ?? {})) {
      if (!(HOST_PHASES as readonly string[]).includes(phase))
        throw new E_PLUGIN_PHASE_UNKNOWN(plugin.name, phase, known);
    }
  }
  const names = new Set(plugins.map((plugin) => plugin.name));
  const everyName = [...names].join(", ") || "none";
  for (const plugin of plugins) {
    for (const needed of plugin.after ?? []) {
      if (!names.has(needed))
        throw new E_PLUGIN_ORDER(plugin.name, `${needed}, which the app does not have`, everyName);
    }
  }
  const ordered: HostPlugin[] = [];
  const placed = new Set<HostPlugin>();
  const visiting = new Set<HostPlugin>();
  const place = (plugin: HostPlugin): void => {
    if (placed.has(plugin)) return;
    if (visiting.has(plugin)) {
      throw new E_PLUGIN_ORDER(
        plugin.name,
        `plugins that come after it (${[...visiting].map((p) => p.name).join(" -> ")})`,
        everyName,
      );
    }
    visiting.add(plugin);
    for (const needed of plugin.after ?? []) for (const other of plugins) if (other.name === needed) place(other);
    visiting.delete(plugin);
    placed.add(plugin);
    ordered.push(plugin);
  };
  for (const plugin of plugins) place(plugin);
  return ordered;
}
