/** The tag key that holds a route's response kind (`json` or `xml`; absent means HTML). */
export const RESPONSE_KIND = "responseKind";

/** The tag key of a class-level `@navTitle` (inherited by every route of the class). */
export const NAV_CLASS = "fwb.navClass";

/** The tag key of a method-level `@navTitle`. */
export const NAV_ITEM = "fwb.navItem";

/** The response kinds fw-b knows. */
export type ResponseKind = "html" | "json" | "xml";
