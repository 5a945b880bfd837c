// fw-a's list page of a generated resource (Nunjucks): the table of rows, and with --live the same
// table kept up to date by the kit's list script from a row template.
import { type Field, LIVE_SCRIPT_STATIC, labelOf, liveEventsPath, liveKey, type ResourceNames } from "@fwkit/cli";

/** How a page shows a field of `row`: yes/no, a reference's parent by its label, else the value. */
export function shown(row: string, field: Field): string {
  if (field.parent) return `${row}.${field.relation}.${field.parent.label} if ${row}.${field.relation}`;
  return field.type === "boolean" ? `"yes" if ${row}.${field.name} else "no"` : `${row}.${field.name}`;
}

/** The list page's heading and its "New" link. */
function indexHeader(names: ResourceNames, title: string): string {
  return `  <div class="page-header">
    <h1>${title}</h1>
    <a class="button" href="{{ url_for('${names.plural}.new') }}">New ${names.human}</a>
  </div>`;
}

/** The list page's table head: the first field, then the others. */
const tableHead = (first: Field, rest: readonly Field[]) =>
  `<thead><tr>${[first, ...rest].map((field) => `<th>${labelOf(field)}</th>`).join("")}</tr></thead>`;

/** The cells of a list row after the first (which links to the row's page). */
const restCells = (rest: readonly Field[]) => rest.map((field) => `<td>{{ ${shown("row", field)} }}</td>`).join("");

/** The list page's body: the table of rows, or a message when there is none. */
export function indexPage(names: ResourceNames, title: string, first: Field, rest: readonly Field[]): string {
  return `${indexHeader(names, title)}
  {% if ${names.table} | length %}
  <table class="table ${names.module}">
    ${tableHead(first, rest)}
    <tbody>
    {% for row in ${names.table} %}<tr><td><a href="{{ url_for('${names.plural}.get', { id: row.id }) }}">{{ row.${first.name} }}</a></td>${restCells(rest)}</tr>
    {% endfor %}
    </tbody>
  </table>
  {% else %}<p class="empty">No ${names.humanPlural} yet.</p>{% endif %}`;
}

/**
 * The live list page (--live): the same table, kept up to date by the kit's list script (a static
 * file: the app's Content-Security-Policy allows no inline script) from a row template.
 */
export function liveIndexPage(names: ResourceNames, title: string, first: Field, rest: readonly Field[]): string {
  const cell = (field: Field) => `<td data-live-field="${liveKey(field)}"></td>`;
  return `${indexHeader(names, title)}
  <div data-live-events="{{ config.basePath }}${liveEventsPath(names)}">
  <table class="table ${names.module}" data-live-if-rows{% if not ${names.table} | length %} hidden{% endif %}>
    ${tableHead(first, rest)}
    <tbody data-live-list>
    {% for row in ${names.table} %}<tr data-id="{{ row.id }}"><td><a href="{{ url_for('${names.plural}.get', { id: row.id }) }}">{{ row.${first.name} }}</a></td>${restCells(rest)}</tr>
    {% endfor %}
    </tbody>
  </table>
  <p class="empty" data-live-if-empty{% if ${names.table} | length %} hidden{% endif %}>No ${names.humanPlural} yet.</p>
  <template data-live-row><tr><td><a data-live-href="{{ url_for('${names.plural}.get', { id: '__id__' }) }}" data-live-field="${liveKey(first)}"></a></td>${rest.map(cell).join("")}</tr></template>
  </div>
  <script src="{{ static('${LIVE_SCRIPT_STATIC}') }}" defer></script>`;
}
