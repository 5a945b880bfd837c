import type { Context } from "koa";
import { checkOptionKeys, setTag, type ViewDecorator, type ViewDecoratorContext } from "routing-kernel";
import { E_INVALID_NAV_TITLE } from "../errors.js";
import { NAV_CLASS, NAV_ITEM } from "../tags.js";

/** Options of {@link navTitle}. */
export interface NavTitleOptions {
  /** Position among its siblings, lower first (default 0; ties keep declaration order). */
  readonly order?: number;
  /** Shows the entry only when this returns true for the request (e.g. "logged in"). */
  readonly visible?: (ctx: Context) => boolean;
}

/** A menu entry as recorded by {@link navTitle}. */
export interface NavEntry {
  readonly title: string;
  readonly order: number;
  readonly visible?: (ctx: Context) => boolean;
}

/**
 * Puts a class (a menu section, linking to its `index` or first entry) or a GET method (an entry
 * of its class's section) in the navigation menu that the default layout shows as `nav`.
 */
export function navTitle(title: string, options: NavTitleOptions = {}): ViewDecorator {
  checkOptionKeys("@navTitle(title, options)", options, ["order", "visible"]);
  return (value: unknown, context: ViewDecoratorContext) => {
    const where = context.kind === "class" ? `class ${String(context.name)}` : `${String(context.name)}()`;
    if (typeof title !== "string" || title.trim() === "")
      throw new E_INVALID_NAV_TITLE(where, "the title must be a non-empty string");
    const order = options.order ?? 0;
    if (typeof order !== "number" || !Number.isFinite(order))
      throw new E_INVALID_NAV_TITLE(where, "order must be a finite number");
    if (options.visible !== undefined && typeof options.visible !== "function") {
      throw new E_INVALID_NAV_TITLE(where, "visible must be a function of the request context");
    }
    const entry: NavEntry = Object.freeze({ title, order, ...(options.visible ? { visible: options.visible } : {}) });
    setTag("navTitle", context.kind === "class" ? NAV_CLASS : NAV_ITEM, entry)(value, context);
  };
}
