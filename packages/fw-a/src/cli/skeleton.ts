import { fileURLToPath } from "node:url";
import { scaffoldDependencies } from "koa-host/cli";

// This package's folder (from src/cli or dist/cli): the versions a new app asks for are its own.
const PACKAGE_DIR = fileURLToPath(new URL("../../", import.meta.url));

/** The files `fw-a gen:init` writes (relative path -> content; a trailing `/` is a folder). */
export function skeletonFiles(appName: string, frameworkDir: string): Record<string, string> {
  return {
    "app.ts": `import { defineApp } from "fw-a";

/** The app entry: \`fw-a gen:serve\` builds and serves this app. */
export const app = defineApp({ root: import.meta.dirname });
`,
    "package.json": `${JSON.stringify(
      {
        name: appName,
        private: true,
        type: "module",
        scripts: { dev: "fw-a gen:serve", routes: "fw-a routes", migrate: "fw-a db:migrate" },
        dependencies: { "fw-a": `file:${frameworkDir}`, ...scaffoldDependencies(PACKAGE_DIR) },
      },
      null,
      2,
    )}\n`,
    "tsconfig.json": `${JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023", "ESNext.Decorators"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: true,
          noEmit: true,
        },
        include: ["**/*.ts"],
        exclude: ["node_modules"],
      },
      null,
      2,
    )}\n`,
    "lib/config.ts": `import { defineConfig } from "fw-a";

/**
 * App configuration. Environment variables win over these values (SECRET_KEY, DB_URL, SESSION_URL,
 * CACHE_URL, MAIL_URL, STORAGE_URL, LOG_LEVEL); APP_ENV picks the environment (default development).
 */
export const config = defineConfig({
  appName: ${JSON.stringify(appName)},
  dbUrl: "sqlite:data/app.db",
  environments: {
    // In development mail is printed to the terminal, links included (mailUrl "log:"), so nothing
    // needs an SMTP server. Set MAIL_URL (smtp://..., ses://region) and MAIL_FROM for production.
    development: { mailUrl: "log:", mailFrom: ${JSON.stringify(`${appName} <noreply@example.com>`)} },
    production: { logLevel: "info" },
  },
});
`,
    "lib/models.ts": `import { defineModel, type BaseRow } from "fw-a";

/** A note: a row of the \`notes\` table (see migrations/). */
export interface Note extends BaseRow {
  title: string;
}

/** Models are declared here; the app loads this file at start and binds them to the database. */
export const Note = defineModel<Note>("notes");
`,
    "migrations/20261122000000_create_notes.ts": `import type { Knex } from "fw-a";

/** Creates the notes table with two rows to show on the home page. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("notes", (table) => {
    table.increments("id");
    table.string("title", 200).notNullable();
    table.datetime("created_at", { precision: 3 }).notNullable();
    table.datetime("updated_at", { precision: 3 }).notNullable();
  });
  const now = new Date();
  await knex("notes").insert([
    { title: "Edit views/main.ts to change this page", created_at: now, updated_at: now },
    { title: "Rows come from SQLite (data/app.db)", created_at: now, updated_at: now },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("notes");
}
`,
    "run/scripts.ts": `import { defineCommands } from "fw-a";

/** Commands of this app: they appear in \`fw-a --help\` and run with the app's config loaded. */
export const commands = defineCommands([
  {
    command: "hello [name]",
    describe: "Say hello (an example app command)",
    handler(argv) {
      console.log(\`Hello, \${String(argv["name"] ?? "world")}!\`);
    },
  },
]);
`,
    "views/main.ts": `import { FwA, response } from "fw-a";
import { Note } from "../lib/models.js";

/** The home page: GET / renders templates/main/Index/index.html with the notes from the database. */
export class Index extends FwA {
  async index() {
    return { title: "Welcome", message: "Your fw-a app is running.", notes: await Note.all() };
  }
}

/** A JSON endpoint: GET /api/ */
@response.json
export class Api extends FwA {
  index() {
    return { app: ${JSON.stringify(appName)}, framework: "fw-a", ok: true };
  }
}
`,
    "templates/layouts/base.html": `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{% block title %}${appName}{% endblock %}</title>
  <link rel="stylesheet" href="/static/css/app.css">
</head>
<body>
  <main>
    {% block body %}{% endblock %}
  </main>
</body>
</html>
`,
    "templates/main/Index/index.html": `{% extends "layouts/base.html" %}
{% block title %}{{ title }}{% endblock %}
{% block body %}
  <h1>{{ title }}</h1>
  <p>{{ message }}</p>
  <ul class="notes">
  {% for note in notes %}
    <li>{{ note.title }} <small>{{ timeAgo(note.created_at) }}</small></li>
  {% endfor %}
  </ul>
  <p><a href="{{ url_for('Api.index') }}">JSON API</a></p>
{% endblock %}
`,
    "static/css/app.css": `body { font: 16px/1.5 system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }\n`,
    "data/": "",
    ".gitignore": "node_modules/\ndata/*.db\nbuild/\n.env\n",
    "README.md": `# ${appName}

A [fw-a](${frameworkDir}) app.

- \`npx fw-a gen:serve\` serves it on http://127.0.0.1:5000 and reloads on changes.
- \`npx fw-a routes\` lists the routes; \`npx fw-a gen:view NAME\` adds a view.
- \`npx fw-a db:migrate\` applies migrations (development applies them at start);
  \`npx fw-a db:make NAME\` writes a new one; \`npx fw-a db:rollback\` undoes the last batch.
- Views live in \`views/\`, templates in \`templates/<module>/<Class>/<method>.html\`.
`,
  };
}

/** The files `fw-a gen:view NAME` writes. */
export function viewFiles(module: string, className: string): Record<string, string> {
  return {
    [`views/${module}.ts`]: `import { FwA } from "fw-a";

/** GET /${className === "Index" ? "" : kebab(className) + "/"} renders templates/${module}/${className}/index.html. */
export class ${className} extends FwA {
  index() {
    return { title: ${JSON.stringify(className)} };
  }
}
`,
    [`templates/${module}/${className}/index.html`]: `{% extends "layouts/base.html" %}
{% block title %}{{ title }}{% endblock %}
{% block body %}
  <h1>{{ title }}</h1>
{% endblock %}
`,
  };
}

function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}
