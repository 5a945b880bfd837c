import { fileURLToPath } from "node:url";
import { migrationTimestamp } from "@fwkit/data/plugin";
import { NODE_ENGINES, scaffoldDependencies, scaffoldDevDependencies } from "@fwkit/cli";
import { dataSkeletonFiles } from "./skeleton-data.js";
import { pageFiles } from "./skeleton-pages.js";

// This package's folder (from src/cli or dist/cli): the versions a new app asks for are its own.
const PACKAGE_DIR = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The files `fw-a gen:init` writes (relative path -> content; a trailing `/` is a folder). The first
 * migration is stamped with the scaffold's time (`now`), so migrations made later sort after it.
 */
export function skeletonFiles(appName: string, frameworkDir: string, now: Date = new Date()): Record<string, string> {
  return {
    ...manifestFiles(appName, frameworkDir),
    ...codeFiles(appName, now),
    ...pageFiles(appName),
    "data/": "",
    ".gitignore": "node_modules/\ndata/*.db\nbuild/\nreleases/\ncurrent\n.env\n.console_history\n",
    "README.md": appReadme(appName),
    ...dataSkeletonFiles(),
  };
}

/** The app entry, its package.json (scripts, engines, dependencies) and tsconfig.json. */
function manifestFiles(appName: string, frameworkDir: string): Record<string, string> {
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
        scripts: {
          dev: "fw-a gen:serve",
          routes: "fw-a routes",
          types: "fw-a routes --types",
          typecheck: "tsc -p tsconfig.json",
          test: "node --import tsx --test test/*.test.ts",
          build: "fw-a gen:build",
          migrate: "fw-a db:migrate",
          start: "fw-a start",
        },
        engines: { node: NODE_ENGINES },
        dependencies: { "fw-a": `file:${frameworkDir}`, ...scaffoldDependencies(PACKAGE_DIR) },
        devDependencies: scaffoldDevDependencies(PACKAGE_DIR),
        // nunjucks declares chokidar 3 as an optional peer; pointing it at the app's own (development)
        // chokidar keeps npm from installing a second chokidar with its dependencies in production.
        // Scoped to nunjucks: npm 11 fails ("Cannot read properties of null (reading 'edgesOut')")
        // on a top-level override while it walks the framework's linked packages.
        overrides: { nunjucks: { chokidar: "$chokidar" } },
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
  };
}

/** The config, the example model and its migration (stamped `now`), the app's own commands and an example test. */
function codeFiles(appName: string, now: Date): Record<string, string> {
  return {
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
    // Tests (npm test) never touch the development database or send mail: a database of their own
    // in memory (TEST_DB_URL, or DB_URL in .env.test, names another, named for tests), and every
    // mail kept for the test to read (client.mail).
    test: { dbUrl: "sqlite::memory:", mailUrl: "memory:", mailFrom: ${JSON.stringify(`${appName} <noreply@example.com>`)} },
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
    [`migrations/${migrationTimestamp(now)}_create_notes.ts`]: `import type { Knex } from "fw-a";

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
    "jobs/rename-note.ts": `import { Job } from "fw-a";
import { z } from "zod";
import { Note } from "../lib/models.js";

const Payload = z.object({ noteId: z.number().int(), title: z.string().min(1).max(200) });

/**
 * An example job: renames a note outside the request. Dispatch it from a view with
 * \`await RenameNote.dispatch({ noteId: 1, title: "Done" })\`; in development it runs in the
 * process, in production on a \`fw-a jobs:work\` process (QUEUE_URL=redis://...). A job may run more
 * than once (a worker stopped mid-job runs it again), so it sets a value instead of adding to one:
 * run twice, the result is the same.
 */
export class RenameNote extends Job<z.infer<typeof Payload>> {
  static override schema = Payload;
  static override options = { attempts: 3, backoff: "5s" };

  async handle({ noteId, title }: z.infer<typeof Payload>): Promise<void> {
    await Note.query().where({ id: noteId }).update({ title });
  }
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
    "test/app.test.ts": `// An example test with fw-a's test client: the app is built from this folder in the \`test\`
// environment and requests go through it in memory (no port). Run with \`npm test\`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { testClient, type AppTestClient } from "fw-a/testing";
import { RenameNote } from "../jobs/rename-note.js";

let client: AppTestClient;

before(async () => {
  // A fresh in-memory database per run, migrated at start.
  client = await testClient(join(import.meta.dirname, ".."), { config: { dbUrl: "sqlite::memory:", autoMigrate: true } });
});
after(() => client.close());

test("the JSON endpoint answers", async () => {
  const res = await client.get(client.urlFor("Api.index"));
  assert.equal(res.status, 200);
  assert.deepEqual(res.json(), { app: ${JSON.stringify(appName)}, framework: "fw-a", ok: true });
});

test("the home page lists the notes of the first migration", async () => {
  const res = await client.get("/");
  assert.equal(res.status, 200);
  assert.match(res.text(), /Rows come from SQLite/);
});

test("a dispatched job waits in the test queue until runAll runs it", async () => {
  await RenameNote.dispatch({ noteId: 1, title: "Renamed by a job" });
  assert.deepEqual(client.jobs.dispatched(RenameNote).map((job) => job.payload), [{ noteId: 1, title: "Renamed by a job" }]);
  assert.equal(await client.jobs.runAll(), 1);
  assert.match((await client.get("/")).text(), /Renamed by a job/);
});
`,
  };
}

/** The files `fw-a gen:view NAME` writes. */
export function viewFiles(module: string, className: string): Record<string, string> {
  return {
    [`views/${module}.ts`]: `import { FwA } from "fw-a";

/** GET /${className === "Index" ? "" : `${kebab(className)}/`} renders templates/${module}/${className}/index.html. */
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

/** The new app's README: its commands, from the first page to a release (the order of docs/deployment.md). */
function appReadme(appName: string): string {
  return `# ${appName}

An app on fw-a: class-based views whose methods render Nunjucks templates, text or JSON.

## Develop

    npm run dev                  # fw-a gen:serve: http://127.0.0.1:5000, reloads on changes (PORT=5001 npm run dev, or --port)
    npx fw-a routes              # the route table (npm run routes; --json for JSON)
    npx fw-a gen:view about      # views/about.ts + templates/about/About/index.html
    npx fw-a db:make create_tags # a new migration (development applies migrations at start)
    npx fw-a db:migrate          # apply migrations/ to the database (data/app.db); db:rollback undoes the last batch
    npx fw-a hello               # a command of run/scripts.ts
    npm run types                # types/routes.d.ts: urlFor checks route names and parameters
    npm run typecheck            # tsc
    npm test                     # test/*.test.ts with fw-a's test client

## Release

In the order docs/deployment.md gives, on a server that keeps this folder:

    npm test                     # 1. the tests pass
    APP_ENV=production npx fw-a release           # 2. build into releases/<id>, migrate, switch current to it
    APP_ENV=production npx fw-a start             # 3. serve current (PORT, or --port; --workers N)

A running \`start\` serves a new release after \`kill -HUP <pid>\` (\`systemctl reload\`);
\`npx fw-a release:rollback\` switches back. In a container the same order is
\`npm run build\` (fw-a gen:build, into build/), \`npm run migrate\` against the production
database, then \`npm start\`; \`npx fw-a gen:deploy\` writes the Dockerfile, compose, systemd and
Kubernetes files.

## Metrics and traces

Prometheus metrics (request latency by route, the database pool, jobs...) switch on with
\`metrics: { enabled: true }\` in lib/config.ts or \`METRICS_ENABLED=true\`; each node then serves them on
port 9464, the sum of its workers, apart from the app's port. \`npx fw-a gen:deploy\` writes
deploy/prometheus.yml; its job looks like:

    scrape_configs:
      - job_name: app
        metrics_path: /metrics
        static_configs:
          - targets: ["10.0.0.11:9464", "10.0.0.12:9464"]

Traces go to an OpenTelemetry collector with \`OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318\`
(after \`npm install @opentelemetry/sdk-trace-node @opentelemetry/sdk-trace-base @opentelemetry/resources @opentelemetry/exporter-trace-otlp-http\`),
and every log line of a request then carries its \`trace_id\`. See docs/observability.md of the framework.

## Where things are

- \`app.ts\`: the app entry; \`lib/config.ts\`: configuration (environment variables win).
- \`lib/models.ts\`: models; \`migrations/\`: the migrations that build the database.
- \`jobs/\`: background jobs (\`class RenameNote extends Job\`): in the process in development, on \`fw-a jobs:work\` processes with \`QUEUE_URL=redis://...\` in production.
- \`lib/factories.ts\`: model factories; \`seeds/\`: development data (\`npx fw-a db:seed\`).
- \`npx fw-a console\`: a REPL with the app loaded (models, config, services).
- \`views/*.ts\`: views; templates in \`templates/<module>/<Class>/<method>.html\`.
- \`run/scripts.ts\`: the app's own commands.

\`node_modules/fw-a\` is a link to the fw-a package this app was made with; \`npm install\` keeps it
and installs the rest (the native drivers better-sqlite3 and bcrypt are built in this app's folder).
`;
}

function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}
