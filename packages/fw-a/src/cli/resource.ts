/**
 * fw-a's part of `fw-a gen:resource`: the view module (HTML pages, or JSON with `--api`), its
 * Nunjucks templates in the app's layout, and a test with the test client and the factory. The
 * migration, model and factory, and the rules (names, clashes, never overwriting) are the kit's.
 */
import { markDraft } from "@fwkit/data/plugin";
import { indexPage, liveIndexPage, shown } from "./resource-index-page.js";
import { addNavLink, addResourceStyles } from "./resource-nav.js";
import {
  choicesSource,
  inputSchemaSource,
  labelOf,
  liveBroadcastSource,
  liveListedSource,
  listSource,
  loadedSource,
  oneSource,
  outputName,
  outputSchemaSource,
  resourceTestFile,
  viewModels,
  type Field,
  type ResourceEdit,
  type ResourceNames,
  type ResourceScaffold,
} from "@fwkit/cli";

function htmlView(names: ResourceNames, fields: readonly Field[], live: boolean): string {
  const { model, plural, human } = names;
  const capital = human.charAt(0).toUpperCase() + human.slice(1);
  const choices = choicesSource(fields);
  // With --live: each change is broadcast to the list page (it shows every field).
  const tell = (event: "created" | "updated" | "deleted", id: string) =>
    live ? `\n    ${liveBroadcastSource(names, event, id)}` : "";
  return `import { ${live ? "broadcast, " : ""}FwA, flash, HTTPError, request, response } from "fw-a";
import { z } from "zod";
import { ${viewModels(names, fields, true)} } from "../lib/models.js";

${inputSchemaSource(names, fields, true)}
${live ? `\n${liveListedSource(names, fields)}\n` : ""}
/** ${capital}s as HTML pages: list, show, new, create, edit, update, delete. */
export class ${plural} extends FwA {
  /** GET /${names.module.replace(/_/g, "-")}/ */
  async index() {
    return { ${names.table}: await ${listSource(names, fields)} };
  }

  /** GET /${names.module.replace(/_/g, "-")}/<id>/ */
  async get(id: string) {
    return { ${names.item}: await ${oneSource(names, fields)} };
  }

  /** GET /${names.module.replace(/_/g, "-")}/new/: the empty form. */
  ${choices ? "async " : ""}new() {
    return { ${names.item}: {}${choices} };
  }

  /** POST /${names.module.replace(/_/g, "-")}/: a refused form goes back to the new page with its messages. */
  @request.post
  @request.body(${names.input})
  async post() {
    const created = await ${model}.create(this.input(${names.input}));${tell("created", "created.id")}
    flash(this.ctx, "success", "${capital} created.");
    return response.redirect(this.urlFor("${plural}.get", { id: created.id }));
  }

  /** GET /${names.module.replace(/_/g, "-")}/edit/<id>/: the form with the row's values. */
  async edit(id: string) {
    return { ${names.item}: await ${model}.findOrFail(id)${choices} };
  }

  /** PATCH /${names.module.replace(/_/g, "-")}/<id>/ (the form posts with _method=PATCH). */
  @request.body(${names.input})
  async update(id: string) {
    const updated = await ${model}.update(id, this.input(${names.input}));${tell("updated", "updated.id")}
    flash(this.ctx, "success", "${capital} saved.");
    return response.redirect(this.urlFor("${plural}.get", { id: updated.id }));
  }

  /** DELETE /${names.module.replace(/_/g, "-")}/<id>/ (the form posts with _method=DELETE). */
  async delete(id: string) {
    if (!(await ${model}.delete(id))) throw HTTPError.NotFound("No such ${human}.");${tell("deleted", "id")}
    flash(this.ctx, "success", "${capital} deleted.");
    return response.redirect(this.urlFor("${plural}.index"));
  }
}
`;
}

function apiView(names: ResourceNames, fields: readonly Field[]): string {
  const { model, plural, human } = names;
  const out = outputName(names);
  const one = `z.object({ ${names.item}: ${out} })`;
  const answer = (row: string) => loadedSource(names, fields, row);
  return `import { FwA, HTTPError, Reply, request, response, security } from "fw-a";
import { z } from "zod";
import { ${model} } from "../lib/models.js";

${inputSchemaSource(names, fields, false)}

${outputSchemaSource(names, fields)}

/** ${plural} as a JSON API (documented in the app's OpenAPI document). */
@response.json
@request.tags("${plural}")
@security.csrfExempt // an API for other programs: no cookies, no CSRF token
export class ${plural} extends FwA {
  @request.summary("List ${names.humanPlural}")
  @response.schema(200, z.object({ ${names.table}: z.array(${out}) }))
  async index() {
    return { ${names.table}: await ${listSource(names, fields)} };
  }

  @request.summary("Show a ${human}")
  @response.schema(200, ${one})
  async get(id: string) {
    return { ${names.item}: await ${oneSource(names, fields)} };
  }

  @request.post
  @request.body(${names.input})
  @request.summary("Create a ${human}")
  @response.schema(201, ${one})
  async post() {
    const created = await ${model}.create(this.input(${names.input}));
    return new Reply({ ${names.item}: ${answer("created")} }, { status: 201, headers: { Location: this.urlFor("${plural}.get", { id: created.id }) } });
  }

  @request.body(${names.patch})
  @request.summary("Change a ${human}: only the fields sent")
  @response.schema(200, ${one})
  async update(id: string) {
    const updated = await ${model}.update(id, this.input(${names.patch}));
    return { ${names.item}: ${answer("updated")} };
  }

  @request.summary("Delete a ${human}")
  async delete(id: string) {
    if (!(await ${model}.delete(id))) throw HTTPError.NotFound("No such ${human}.");
    return new Reply(undefined, { status: 204 });
  }
}
`;
}

function input(names: ResourceNames, field: Field): string {
  const id = `${names.module}-${field.name}`;
  const value = `(old.${field.name} if (old and old.${field.name} is defined) else ${names.item}.${field.name})`;
  const errors = `{% for message in errors.${field.name} %}<span class="error" id="${id}-error">{{ message }}</span>{% endfor %}`;
  // The field's wrapper: the scaffold's stylesheet marks a field with a message (.field.has-error).
  const open = `<p class="field{% if errors.${field.name} %} has-error{% endif %}">`;
  const required = field.optional || field.type === "boolean" ? "" : " required";
  if (field.parent) {
    // The parent's rows to choose from (the view passes them); the old choice is selected again.
    const parent = field.parent;
    const options = `{% for choice in ${parent.names.table} %}<option value="{{ choice.id }}"{% if choice.id == ${value} %} selected{% endif %}>{{ choice.${parent.label} }}</option>{% endfor %}`;
    return `  ${open}<label for="${id}">${labelOf(field)}</label><select id="${id}" name="${field.name}"${required}><option value="">Choose a ${parent.names.human}</option>${options}</select> ${errors}</p>`;
  }
  if (field.type === "boolean") {
    return `  ${open}<label class="check"><input type="checkbox" id="${id}" name="${field.name}" value="true"{% if ${value} and ${value} != "false" %} checked{% endif %}> ${labelOf(field)}</label> ${errors}</p>`;
  }
  const control =
    field.type === "text"
      ? `<textarea id="${id}" name="${field.name}" rows="6"${required}>{{ ${value} if ${value} != null }}</textarea>`
      : `<input id="${id}" name="${field.name}"${field.type === "integer" ? ' type="number" step="1"' : field.type === "number" ? ' type="number" step="any"' : ""} value="{{ ${value} if ${value} != null }}"${required}>`;
  return `  ${open}<label for="${id}">${labelOf(field)}</label>${control} ${errors}</p>`;
}

function templates(names: ResourceNames, fields: readonly Field[], live: boolean): Record<string, string> {
  const dir = `templates/${names.module}/${names.plural}`;
  const item = `${names.item}`;
  const title = names.humanPlural.charAt(0).toUpperCase() + names.humanPlural.slice(1);
  // The heading and the list's link: the first field that is not a reference.
  const first = fields.find((field) => !field.parent) ?? fields[0]!;
  const rest = fields.filter((field) => field !== first);
  const flashes = `  {% for flash in flash_messages %}<p class="flash flash-{{ flash.kind }}" role="status">{{ flash.message }}</p>{% endfor %}`;
  const page = (heading: string, body: string) => `{% extends "layouts/base.html" %}
{% block title %}${heading}{% endblock %}
{% block body %}
${flashes}
${body}
{% endblock %}
`;
  return {
    [`${dir}/index.html`]: page(
      title,
      live ? liveIndexPage(names, title, first, rest) : indexPage(names, title, first, rest),
    ),
    [`${dir}/get.html`]: page(
      `{{ ${item}.${first.name} }}`,
      `  <h1>{{ ${item}.${first.name} }}</h1>
  <dl class="details">
${fields.map((field) => `    <dt>${labelOf(field)}</dt><dd class="${field.relation ?? field.name}">{{ ${shown(item, field)} }}</dd>`).join("\n")}
  </dl>
  <div class="actions">
    <a class="button" href="{{ url_for('${names.plural}.edit', { id: ${item}.id }) }}">Edit</a>
    <a class="button button-secondary" href="{{ url_for('${names.plural}.index') }}">All ${names.humanPlural}</a>
    <form method="post" action="{{ url_for('${names.plural}.delete', { id: ${item}.id }) }}">
      <input type="hidden" name="_csrf_token" value="{{ csrf_token() }}">
      <input type="hidden" name="_idempotency_key" value="{{ idempotency_key() }}">
      <input type="hidden" name="_method" value="DELETE">
      <button class="button button-danger" type="submit">Delete</button>
    </form>
  </div>`,
    ),
    [`${dir}/new.html`]: page(
      `New ${names.human}`,
      `  <h1>New ${names.human}</h1>
  <form class="form" method="post" action="{{ url_for('${names.plural}.post') }}">
  {% include "${dir.slice("templates/".length)}/_form.html" %}
  </form>`,
    ),
    [`${dir}/edit.html`]: page(
      `Edit ${names.human}`,
      `  <h1>Edit {{ ${item}.${first.name} }}</h1>
  <form class="form" method="post" action="{{ url_for('${names.plural}.update', { id: ${item}.id }) }}">
  <input type="hidden" name="_method" value="PATCH">
  {% include "${dir.slice("templates/".length)}/_form.html" %}
  </form>`,
    ),
    [`${dir}/_form.html`]: `{# The fields of the new and edit forms: a refused form comes back with old input and errors. #}
  <input type="hidden" name="_csrf_token" value="{{ csrf_token() }}">
  <input type="hidden" name="_idempotency_key" value="{{ idempotency_key() }}">
  <input type="hidden" name="_back" value="{{ back_path() }}">
${fields.map((field) => input(names, field)).join("\n")}
  <p class="actions"><button class="button" type="submit">Save</button></p>
`,
  };
}

/**
 * fw-a's resource files: the view, the templates (not with `api`) and the test; with HTML pages, a
 * link to them in the layout's nav (where the scaffold's marker is) and the pages' rules in the
 * stylesheet (when it lacks them).
 */
export const fwaResourceScaffold: ResourceScaffold = {
  framework: "fw-a",
  markDraft,
  edits(names, _fields, { api }): Record<string, ResourceEdit> {
    if (api) return {};
    const label = names.humanPlural.charAt(0).toUpperCase() + names.humanPlural.slice(1);
    return {
      "templates/layouts/base.html": addNavLink(names.plural, label),
      "static/css/app.css": addResourceStyles,
    };
  },
  files(names, fields, { api, live }) {
    return {
      [`views/${names.module}.ts`]: api ? apiView(names, fields) : htmlView(names, fields, live),
      ...(api ? {} : templates(names, fields, live)),
      [`test/${names.module}.test.ts`]: resourceTestFile("fw-a", names, fields, api, live),
    };
  },
};
