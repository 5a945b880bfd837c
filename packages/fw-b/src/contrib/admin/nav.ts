import type { RouteTable } from "routing-kernel";
import type { ContribSettings } from "../config.js";
import type { AdminNavItem } from "../runtime.js";
import { ADMIN_TAG } from "../roles.js";
import type { AdminTag } from "./decorator.js";

/**
 * The admin menu, built once at start-up: the contrib pages that are on (dashboard, users,
 * messages, maintenance), then each `@admin` class of the app, linking to its `index`. Titles of
 * contrib pages are i18n keys (`admin.nav.*`), the app's are shown as written.
 */
export function adminNavigation(table: RouteTable, settings: ContribSettings, basePath = ""): AdminNavItem[] {
  const items: AdminNavItem[] = [];
  if (settings.admin) {
    items.push({ title: "admin.nav.dashboard", url: `${basePath}/admin`, icon: "speedometer2" });
    items.push({ title: "admin.nav.users", url: `${basePath}/admin/users`, icon: "people" });
    if (settings.contact)
      items.push({ title: "admin.nav.messages", url: `${basePath}/admin/messages`, icon: "envelope" });
    if (settings.maintenance)
      items.push({ title: "admin.nav.maintenance", url: `${basePath}/admin/maintenance`, icon: "cone-striped" });
  }
  const seen = new Set<unknown>();
  for (const route of table.routes) {
    const tag = route.tags[ADMIN_TAG] as AdminTag | undefined;
    if (!tag || seen.has(route.viewClass) || route.module.startsWith("contrib/")) continue;
    const index = table.routes.find(
      (r) =>
        r.viewClass === route.viewClass &&
        r.methodName === "index" &&
        r.verbs.includes("GET") &&
        r.parameters.every((p) => p.optional || p.source === "none"),
    );
    if (!index) continue;
    seen.add(route.viewClass);
    items.push({ title: tag.title, url: basePath + (index.patterns[0] ?? index.path), icon: tag.icon });
  }
  return items;
}
