/** The tag key of a class-level `@navTitle` (inherited by every route of the class). */
export const NAV_CLASS = "fwb.navClass";

/** The tag key of a method-level `@navTitle`. */
export const NAV_ITEM = "fwb.navItem";
