import type { Context } from "koa";
import { translatorSlot } from "@fwkit/koa-host/plugin";
import { buildUrl, type Route, type RouteTable, type ViewClass } from "routing-kernel";
import type { NavEntry } from "../decorators/nav-title.js";
import { E_NAV_UNREACHABLE } from "../errors.js";
import { NAV_CLASS, NAV_ITEM } from "../tags.js";

type Translate = (key: string) => string;

/** One link of the navigation menu as templates see it (`nav`). */
export interface MenuItem {
  readonly title: string;
  readonly url: string;
  /** True when the request is on this page (or, for a section, on one of its pages). */
  readonly active: boolean;
  /** A section's entries (empty for an entry). */
  readonly children: readonly MenuItem[];
}

interface Node {
  readonly entry: NavEntry;
  readonly url: string;
  readonly index: number;
  readonly children: readonly Node[];
}

/**
 * The navigation menu, computed once at start-up from the `@navTitle` tags of the route table;
 * `forRequest(ctx)` filters it by each entry's `visible` predicate and marks the active entries.
 * A class with `@navTitle` is a section linking to its `index` (or first entry); methods with
 * `@navTitle` are its entries (top-level entries when their class has no title).
 */
export class NavMenu {
  readonly #nodes: readonly Node[];

  constructor(table: RouteTable, basePath = "") {
    this.#nodes = buildNodes(table, basePath);
  }

  /** True when no route has a `@navTitle`. */
  get empty(): boolean {
    return this.#nodes.length === 0;
  }

  /**
   * The menu for one request. A title is also a translation key: with translations on (the
   * request's translator in koa-host's `translatorSlot`), a title the catalogs have is shown in the
   * request's language (`"Products"` -> `"Produkte"` from `locales/de.json`); any other title as written.
   */
  forRequest(ctx: Context): MenuItem[] {
    const translate = translatorSlot.get(ctx);
    return filter(this.#nodes, ctx, ctx.path, typeof translate === "function" ? translate : undefined);
  }
}

function filter(nodes: readonly Node[], ctx: Context, path: string, translate: Translate | undefined): MenuItem[] {
  const items: MenuItem[] = [];
  for (const node of nodes) {
    if (node.entry.visible && !node.entry.visible(ctx)) continue;
    const children = filter(node.children, ctx, path, translate);
    const here = path === node.url;
    const within = node.children.length > 0 && node.url !== "/" && path.startsWith(`${node.url}/`);
    items.push({
      title: translate ? translate(node.entry.title) : node.entry.title,
      url: node.url,
      active: here || within || children.some((c) => c.active),
      children,
    });
  }
  return items;
}

function buildNodes(table: RouteTable, basePath: string): Node[] {
  const classes = new Map<ViewClass, Route[]>();
  for (const route of table.routes) {
    const list = classes.get(route.viewClass) ?? [];
    list.push(route);
    classes.set(route.viewClass, list);
  }
  const top: Node[] = [];
  let index = 0;
  for (const routes of classes.values()) {
    const items = routes
      .filter((route) => route.tags[NAV_ITEM] !== undefined)
      .map((route) => ({
        entry: route.tags[NAV_ITEM] as NavEntry,
        url: linkOf(route, basePath),
        index: index++,
        children: [],
      }));
    const section = routes[0]!.tags[NAV_CLASS] as NavEntry | undefined;
    if (!section) {
      top.push(...items);
      continue;
    }
    const home = routes.find((r) => r.methodName === "index" && reachable(r) === undefined);
    const fallback =
      home ?? routes.find((r) => r.tags[NAV_ITEM] !== undefined) ?? routes.find((r) => reachable(r) === undefined);
    if (!fallback)
      throw new E_NAV_UNREACHABLE(
        `class ${routes[0]!.className}`,
        "none of its methods is a GET route without required parameters",
      );
    top.push({ entry: section, url: linkOf(fallback, basePath), index: index++, children: sorted(items) });
  }
  return sorted(top);
}

function sorted(nodes: Node[]): Node[] {
  return nodes.sort((a, b) => a.entry.order - b.entry.order || a.index - b.index);
}

/** Why a route cannot be a plain link, or undefined when it can. */
function reachable(route: Route): string | undefined {
  if (!route.verbs.includes("GET")) return `it answers ${route.verbs.join(", ")}, not GET`;
  try {
    buildUrl(route, {});
  } catch {
    return "its path needs parameters";
  }
  return undefined;
}

function linkOf(route: Route, basePath: string): string {
  const problem = reachable(route);
  if (problem) throw new E_NAV_UNREACHABLE(`${route.id}()`, problem);
  return basePath + buildUrl(route, {});
}
