/**
 * The resource generator's `--live` in both frameworks: the list page's channel (named after the
 * table, public like the generated pages), the view's broadcasts of what the list shows of a row,
 * the realtime channel added to lib/config.ts, and the one small script that updates the list.
 */
import type { Field } from "./fields.js";
import type { ResourceEdit } from "./resource-files.js";
import type { ResourceNames } from "./resource-names.js";
import { oneSource } from "./reference-views.js";

/** Where the list script goes in the app, and its path under the static prefix. */
export const LIVE_SCRIPT_FILE = "static/js/live-list.js";
/** {@link LIVE_SCRIPT_FILE} as the templates' `static(...)` helper takes it. */
export const LIVE_SCRIPT_STATIC = "js/live-list.js";

/**
 * The list script: a static file, so the app's Content-Security-Policy needs no inline script. The
 * page marks the list's parts with data attributes; the script fills a copy of the page's row
 * template from each event's data (text only, never HTML).
 */
export const LIVE_SCRIPT = `// Keeps a generated list page up to date (gen:resource --live). The element with
// data-live-events opens an EventSource on that URL (the realtime battery's /_events); "created"
// and "updated" put a copy of its <template data-live-row>, filled from the event's data, in place
// of the row with the same data-id (or at the end), "deleted" removes that row. data-live-if-rows and data-live-if-empty elements are
// shown when the list has rows, or none. EventSource reconnects and resumes by itself.
for (const live of document.querySelectorAll("[data-live-events]")) {
  const list = live.querySelector("[data-live-list]");
  const template = live.querySelector("template[data-live-row]");
  const rowOf = (id) => list.querySelector(\`[data-id="\${CSS.escape(String(id))}"]\`);
  const fill = (data) => {
    const row = template.content.firstElementChild.cloneNode(true);
    row.dataset.id = data.id;
    for (const link of row.querySelectorAll("[data-live-href]"))
      link.href = link.dataset.liveHref.replace("__id__", encodeURIComponent(data.id));
    for (const cell of row.querySelectorAll("[data-live-field]"))
      cell.textContent = String(data[cell.dataset.liveField] ?? "");
    return row;
  };
  const showRowsOrEmpty = () => {
    const empty = list.children.length === 0;
    for (const element of live.querySelectorAll("[data-live-if-rows]")) element.hidden = empty;
    for (const element of live.querySelectorAll("[data-live-if-empty]")) element.hidden = !empty;
  };
  const on = (event, change) =>
    source.addEventListener(event, (message) => {
      change(JSON.parse(message.data).data);
      showRowsOrEmpty();
    });
  const source = new EventSource(live.dataset.liveEvents);
  const upsert = (data) => {
    const row = rowOf(data.id);
    if (row) row.replaceWith(fill(data));
    else list.append(fill(data));
  };
  on("created", upsert);
  on("updated", upsert);
  on("deleted", (data) => rowOf(data.id)?.remove());
  // Changes were missed beyond the stream's window: the page is read again.
  source.addEventListener("reset", () => location.reload());
}
`;

/** The channel a resource's list page listens on: its table's name (`todos`). */
export function liveChannel(names: ResourceNames): string {
  return names.table;
}

/** The key a shown field's value is sent under: the relation's name for a reference (`project`). */
export function liveKey(field: Field): string {
  return field.relation ?? field.name;
}

/**
 * The view module's helper `listed(id)`: what the list page shows of a row, and only that (never
 * the other columns), as the page shows it (yes/no, a parent by its label).
 */
export function liveListedSource(names: ResourceNames, shown: readonly Field[]): string {
  const value = (field: Field) =>
    field.parent
      ? `row.${field.relation}?.${field.parent.label} ?? ""`
      : field.type === "boolean"
        ? `row.${field.name} ? "yes" : "no"`
        : `row.${field.name}`;
  const entries = shown.map((field) => `${liveKey(field)}: ${value(field)}`).join(", ");
  return `/** What the list page shows of a ${names.human}, broadcast to it on the "${liveChannel(names)}" channel (no other column). */
async function listed(id: number | string) {
  const row = await ${oneSource(names, shown)};
  return { id: row.id, ${entries} };
}`;
}

/** The statement that tells the list page about a change (`created`, `updated`, `deleted`) of the row `id`. */
export function liveBroadcastSource(
  names: ResourceNames,
  event: "created" | "updated" | "deleted",
  id: string,
): string {
  const data = event === "deleted" ? `{ id: Number(${id}) }` : `await listed(${id})`;
  return `await broadcast("${liveChannel(names)}", "${event}", ${data});`;
}

/** The URL the list page's EventSource opens: the realtime endpoint under the app's base path. */
export function liveEventsPath(names: ResourceNames): string {
  return `/_events?channel=${liveChannel(names)}`;
}

const CHANNELS_MARKER = "// gen:resource --live: each live list page's channel, public like its pages.";

/**
 * Declares the list page's channel in lib/config.ts, which also switches the realtime battery on:
 * public, as the generated pages are (an app that puts them behind a login gives the channel an
 * `authorize` callback). A config with its own `realtime` key is left for the user to edit.
 */
export function addLiveChannel(names: ResourceNames): ResourceEdit {
  const channel = liveChannel(names);
  const line = `${channel}: { public: true },`;
  return (before) => {
    const marker = before.indexOf(CHANNELS_MARKER);
    if (marker >= 0) {
      if (before.includes(`\n      ${line}\n`)) return { content: before };
      const end = before.indexOf("\n", marker) + 1;
      return { content: `${before.slice(0, end)}      ${line}\n${before.slice(end)}` };
    }
    const manual = `add realtime: { channels: { ${channel}: { public: true } } } to its config yourself`;
    if (/\brealtime\s*:/.test(before)) return { skipped: `it has a realtime key; ${manual}` };
    const open = /defineConfig\(\{[ \t]*\n/.exec(before);
    if (!open) return { skipped: `it has no defineConfig({ line; ${manual}` };
    const at = open.index + open[0].length;
    const block = `  realtime: {\n    channels: {\n      ${CHANNELS_MARKER}\n      ${line}\n    },\n  },\n`;
    return { content: `${before.slice(0, at)}${block}${before.slice(at)}` };
  };
}
