/**
 * fw-b's part of `fw-b :resource`: the view module (HTML pages, or JSON with `--api`), its Pug
 * templates in the default layout with the contrib form helpers (`+csrf()`, `+field(...)`), and a
 * test with the test client and the factory. The migration, model and factory, and the rules
 * (names, clashes, never overwriting) are the kit's.
 */
import { markDraft } from "@fwkit/data/plugin";
import {
  choicesSource,
  inputSchemaSource,
  labelOf,
  LIVE_SCRIPT_STATIC,
  liveBroadcastSource,
  liveEventsPath,
  liveKey,
  liveListedSource,
  listSource,
  loadedSource,
  oneSource,
  outputName,
  outputSchemaSource,
  resourceTestFile,
  viewModels,
  type Field,
  type ResourceNames,
  type ResourceScaffold,
} from "@fwkit/cli";
import { nextNavOrder } from "./nav-order.js";

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What the list page shows of a row: the first field that is not a reference, and the references. */
function listedFields(fields: readonly Field[]): Field[] {
  const first = fields.find((field) => !field.parent) ?? fields[0]!;
  return [first, ...fields.filter((field) => field.parent && field !== first)];
}

function htmlView(names: ResourceNames, fields: readonly Field[], order: number, live: boolean): string {
  const { model, plural, human } = names;
  const item = `${names.item}`;
  const path = `/${names.module.replace(/_/g, "-")}`;
  const first = (fields.find((field) => !field.parent) ?? fields[0]!).name;
  const choices = choicesSource(fields);
  // With --live: each change is broadcast to the list page.
  const tell = (event: "created" | "updated" | "deleted", id: string) =>
    live ? `\n    ${liveBroadcastSource(names, event, id)}` : "";
  return `import { ${live ? "broadcast, " : ""}FwB, flash, HTTPError } from "fw-b";
import { body, navTitle } from "fw-b/decorators";
import { z } from "zod";
import { ${viewModels(names, fields, true)} } from "../lib/models.js";

${inputSchemaSource(names, fields, true)}
${live ? `\n${liveListedSource(names, listedFields(fields))}\n` : ""}
/** ${capitalized(names.humanPlural)} as HTML pages: list, show, new, create, edit, update, delete. */
@navTitle("${capitalized(names.humanPlural)}", { order: ${order} })
export class ${plural} extends FwB {
  /** GET ${path} */
  async index() {
    return { title: "${capitalized(names.humanPlural)}", ${names.table}: await ${listSource(names, fields)} };
  }

  /** GET ${path}/:id */
  async get(id: string) {
    const ${item} = await ${oneSource(names, fields)};
    return { title: String(${item}.${first}), ${item} };
  }

  /** GET ${path}/new: the empty form. */
  ${choices ? "async " : ""}new() {
    return { title: "New ${human}", ${item}: {}${choices} };
  }

  /** POST ${path}: a refused form goes back to the new page with its messages. */
  @body(${names.input})
  async post() {
    const created = await ${model}.create(this.input(${names.input}));${tell("created", "created.id")}
    flash(this.ctx, "success", "${capitalized(human)} created.");
    return this.redirect(this.urlFor("${plural}.get", { id: created.id }));
  }

  /** GET ${path}/edit/:id: the form with the row's values. */
  async edit(id: string) {
    const ${item} = await ${model}.findOrFail(id);
    return { title: "Edit ${human}", ${item}${choices} };
  }

  /** PATCH ${path}/:id (the form posts with _method=PATCH). */
  @body(${names.input})
  async update(id: string) {
    const updated = await ${model}.update(id, this.input(${names.input}));${tell("updated", "updated.id")}
    flash(this.ctx, "success", "${capitalized(human)} saved.");
    return this.redirect(this.urlFor("${plural}.get", { id: updated.id }));
  }

  /** DELETE ${path}/:id (the form posts with _method=DELETE). */
  async delete(id: string) {
    if (!(await ${model}.delete(id))) throw HTTPError.NotFound("No such ${human}.");${tell("deleted", "id")}
    flash(this.ctx, "success", "${capitalized(human)} deleted.");
    return this.redirect(this.urlFor("${plural}.index"));
  }
}
`;
}

function apiView(names: ResourceNames, fields: readonly Field[]): string {
  const { model, plural, human } = names;
  const out = outputName(names);
  const one = `z.object({ ${names.item}: ${out} })`;
  const answer = (row: string) => loadedSource(names, fields, row);
  return `import { FwB, HTTPError, Reply, request } from "fw-b";
import { body, csrfExempt, renderJson, returns, summary, tags } from "fw-b/decorators";
import { z } from "zod";
import { ${model} } from "../lib/models.js";

${inputSchemaSource(names, fields, false)}

${outputSchemaSource(names, fields)}

/** ${plural} as a JSON API (documented in the app's OpenAPI document). */
@renderJson
@tags("${plural}")
@csrfExempt // an API for other programs: no cookies, no CSRF token
export class ${plural} extends FwB {
  @summary("List ${names.humanPlural}")
  @returns(200, z.object({ ${names.table}: z.array(${out}) }))
  async index() {
    return { ${names.table}: await ${listSource(names, fields)} };
  }

  @summary("Show a ${human}")
  @returns(200, ${one})
  async get(id: string) {
    return { ${names.item}: await ${oneSource(names, fields)} };
  }

  @request.post
  @body(${names.input})
  @summary("Create a ${human}")
  @returns(201, ${one})
  async post() {
    const created = await ${model}.create(this.input(${names.input}));
    return new Reply({ ${names.item}: ${answer("created")} }, { status: 201, headers: { Location: this.urlFor("${plural}.get", { id: created.id }) } });
  }

  @body(${names.patch})
  @summary("Change a ${human}: only the fields sent")
  @returns(200, ${one})
  async update(id: string) {
    const updated = await ${model}.update(id, this.input(${names.patch}));
    return { ${names.item}: ${answer("updated")} };
  }

  @summary("Delete a ${human}")
  async delete(id: string) {
    if (!(await ${model}.delete(id))) throw HTTPError.NotFound("No such ${human}.");
    return new Reply(undefined, { status: 204 });
  }
}
`;
}

function formField(names: ResourceNames, field: Field): string {
  const item = `${names.item}`;
  const current = `${item}.${field.name} == null ? "" : ${item}.${field.name}`;
  if (field.parent) {
    // The parent's rows to choose from (the view passes them); the old choice is selected again.
    const { parent } = field;
    const chosen = `chosen_${field.name}`;
    const invalid = `errors && errors.${field.name} ? "true" : undefined`;
    return `div.fwb-field(class=errors && errors.${field.name} ? "has-error" : undefined)
  - const ${chosen} = old && old.${field.name} !== undefined ? String(old.${field.name}) : String(${current})
  label(for="${field.name}") ${labelOf(field)}
  select(id="${field.name}" name="${field.name}"${field.optional ? "" : " required"} aria-invalid=${invalid})
    option(value="") Choose a ${parent.names.human}
    each choice in ${parent.names.table}
      option(value=choice.id selected=String(choice.id) === ${chosen})= choice.${parent.label}
  +fieldErrors("${field.name}")`;
  }
  if (field.type === "boolean") {
    return `div.fwb-field
  - const checked = old && old.${field.name} !== undefined ? old.${field.name} === "true" : Boolean(${item}.${field.name})
  label
    input(type="checkbox" id="${field.name}" name="${field.name}" value="true" checked=checked)
    |  ${labelOf(field)}
  +fieldErrors("${field.name}")`;
  }
  const type =
    field.type === "text" ? "textarea" : field.type === "integer" || field.type === "number" ? "number" : "text";
  const html = [
    field.optional ? "" : "required: true",
    field.type === "integer" ? 'step: "1"' : field.type === "number" ? 'step: "any"' : "",
    field.type === "text" ? 'rows: "6"' : "",
  ].filter(Boolean);
  return `+field("${field.name}", "${labelOf(field)}", "${type}", { value: ${current}${html.length ? `, html: { ${html.join(", ")} }` : ""} })`;
}

/**
 * The live list page (--live): the same list, kept up to date by the kit's list script (a static
 * file: the app's Content-Security-Policy allows no inline script) from a row template.
 */
function liveIndex(names: ResourceNames, fields: readonly Field[]): string {
  const [first, ...parents] = listedFields(fields);
  const rows = names.table;
  return `extends /layouts/default

block content
  h1= title
  p
    a(href=url_for("${names.plural}.new")) New ${names.human}
  div(data-live-events=(config.basePath || "") + "${liveEventsPath(names)}")
    ul.${names.module}(data-live-list data-live-if-rows hidden=!${rows}.length)
      each row in ${rows}
        li(data-id=row.id)
          a(href=url_for("${names.plural}.get", { id: row.id }))= row.${first!.name}
${parents.map((field) => `          |  · \n          span.${field.relation}= row.${field.relation} ? row.${field.relation}.${field.parent!.label} : ""\n`).join("")}    p(data-live-if-empty hidden=${rows}.length > 0) No ${names.humanPlural} yet.
    template(data-live-row)
      li
        a(data-live-href=url_for("${names.plural}.get", { id: "__id__" }) data-live-field="${liveKey(first!)}")
${parents.map((field) => `        |  · \n        span.${field.relation}(data-live-field="${liveKey(field)}")\n`).join("")}  script(src=static("${LIVE_SCRIPT_STATIC}") defer)
`;
}

function templates(names: ResourceNames, fields: readonly Field[], live: boolean): Record<string, string> {
  const dir = `templates/${names.module}/${names.plural}`;
  const item = `${names.item}`;
  // The heading and the list's link: the first field that is not a reference.
  const first = (fields.find((field) => !field.parent) ?? fields[0]!).name;
  const parents = fields.filter((field) => field.parent);
  const form = (action: string, method: string) => `  form(method="post" action=${action})
    include _form
${method ? `    input(type="hidden" name="_method" value="${method}")\n` : ""}    button(type="submit") Save`;
  return {
    [`${dir}/index.pug`]: live
      ? liveIndex(names, fields)
      : `extends /layouts/default

block content
  h1= title
  p
    a(href=url_for("${names.plural}.new")) New ${names.human}
  if ${names.table}.length
    ul.${names.module}
      each row in ${names.table}
        li
          a(href=url_for("${names.plural}.get", { id: row.id }))= row.${first}
${parents.map((field) => `          |  · \n          span.${field.relation}= row.${field.relation} ? row.${field.relation}.${field.parent!.label} : ""\n`).join("")}  else
    p No ${names.humanPlural} yet.
`,
    [`${dir}/get.pug`]: `extends /layouts/default

block content
  h1= ${item}.${first}
  dl
${fields.map((field) => `    dt ${labelOf(field)}\n    dd.${field.relation ?? field.name}= ${field.parent ? `${item}.${field.relation} ? ${item}.${field.relation}.${field.parent.label} : ""` : field.type === "boolean" ? `${item}.${field.name} ? "yes" : "no"` : `${item}.${field.name}`}`).join("\n")}
  p
    a(href=url_for("${names.plural}.edit", { id: ${item}.id })) Edit
    |  · 
    a(href=url_for("${names.plural}.index")) All ${names.humanPlural}
  form(method="post" action=url_for("${names.plural}.delete", { id: ${item}.id }))
    input(type="hidden" name="_csrf_token" value=csrf_token())
    input(type="hidden" name="_idempotency_key" value=idempotency_key())
    input(type="hidden" name="_method" value="DELETE")
    button(type="submit") Delete
`,
    [`${dir}/new.pug`]: `extends /layouts/default

block content
  h1= title
${form(`url_for("${names.plural}.post")`, "")}
`,
    [`${dir}/edit.pug`]: `extends /layouts/default

block content
  h1= title
${form(`url_for("${names.plural}.update", { id: ${item}.id })`, "PATCH")}
`,
    [`${dir}/_form.pug`]: `//- The fields of the new and edit forms (fw-b's form helpers): a refused form comes back with
//- its old input and the messages.
include /contrib/forms
+csrf()
input(type="hidden" name="_idempotency_key" value=idempotency_key())
+formErrors()
${fields.map((field) => formField(names, field)).join("\n")}
`,
  };
}

/** fw-b's resource files: the view, the templates (not with `api`) and the test. */
export const fwbResourceScaffold: ResourceScaffold = {
  framework: "fw-b",
  markDraft,
  files(names, fields, { api, live, root }) {
    return {
      // In the menu after the app's existing entries, as :addview puts a new view.
      [`views/${names.module}.ts`]: api ? apiView(names, fields) : htmlView(names, fields, nextNavOrder(root), live),
      ...(api ? {} : templates(names, fields, live)),
      [`test/${names.module}.test.ts`]: resourceTestFile("fw-b", names, fields, api, live),
    };
  },
};
