// How gen:resource links its pages from the app's layout: a new app's nav ends with a marker
// comment, and each generated resource adds its link on the line above it, once.
import type { ResourceEdit } from "@fwkit/cli";
import { RESOURCE_CSS, RESOURCE_CSS_MARKER } from "./resource-styles.js";

/** The line in a new app's `templates/layouts/base.html` nav above which generated links go. */
export const NAV_MARKER = "{# fw-a gen:resource adds a link to its pages above this line #}";

/** The layout's nav link to a resource's list page (`Todos` -> `url_for('Todos.index')`). */
export function navLink(plural: string, label: string): string {
  return `<a href="{{ url_for('${plural}.index') }}">${label}</a>`;
}

/** Adds the link above the marker, keeping its indentation; a layout without the marker is left as it is. */
export function addNavLink(plural: string, label: string): ResourceEdit {
  return (before) => {
    if (before.includes(`url_for('${plural}.index')`)) return { content: before };
    const at = before.indexOf(NAV_MARKER);
    if (at < 0) return { skipped: `its nav has no line ${NAV_MARKER}; add a link to ${label} there yourself` };
    const lineStart = before.lastIndexOf("\n", at) + 1;
    const indent = before.slice(lineStart, at);
    // The marker after other text on its line: the link goes just before it.
    if (!/^[ \t]*$/.test(indent))
      return { content: `${before.slice(0, at)}${navLink(plural, label)} ${before.slice(at)}` };
    return { content: `${before.slice(0, lineStart)}${indent}${navLink(plural, label)}\n${before.slice(lineStart)}` };
  };
}

/** Adds the resource pages' rules to a stylesheet that lacks them. */
export const addResourceStyles: ResourceEdit = (before) =>
  before.includes(RESOURCE_CSS_MARKER)
    ? { content: before }
    : { content: `${before}${before === "" || before.endsWith("\n") ? "" : "\n"}\n${RESOURCE_CSS}` };
