/**
 * The resource generator's references (`project:references`), as a user runs them in a new app
 * outside the repository, written once and run by both frameworks' tests: `Project name:string`,
 * then `Task title:string project:references` (pages) and `Job ... project:belongs_to --api`; the
 * migration has the foreign key, the app type-checks and passes its generated tests with the key
 * in place, the API's OpenAPI document describes `project_id` and the preloaded `project` and
 * passes Redocly's recommended rules, and in Chromium the task form offers the projects and comes
 * back with the error on the field when the chosen project was deleted meanwhile.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type Browser, chromium } from "playwright-core";
import { redoclyLint } from "../openapi-tools.js";
import {
  budget,
  CHROMIUM,
  CHROMIUM_ARGS,
  CLI_RUN_MS,
  cleanEnv,
  SERVE_MS,
  serveApp,
  sh,
  type ServedApp,
} from "./generated-app.js";
import type { ResourceGeneratorSubject } from "./resource-generator.js";

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
type Operation = {
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

/** `schema` with its `$ref` followed, and a nullable one (`anyOf: [X, null]`) taken as X. */
function resolved(document: Document, schema: Schema | undefined): Schema {
  assert.ok(schema, "a schema is there");
  if (schema.$ref) return resolved(document, document.components?.schemas?.[schema.$ref.split("/").pop()!]);
  const options = schema.anyOf ?? schema.oneOf;
  if (options)
    return resolved(
      document,
      options.find((option) => option.type !== "null"),
    );
  return schema;
}

/** Registers the cases of `project:references` for one framework. */
export function resourceReferenceCases(subject: ResourceGeneratorSubject): void {
  const { commands, name } = subject;
  const run = (cwd: string, ...args: string[]) =>
    spawnSync(process.execPath, [subject.bin, ...args], { cwd, encoding: "utf8", env: cleanEnv() });
  const p = (path: string) => (subject.trailingSlash ? `${path}/` : path);

  describe(`${name} ${commands.resource} with project:references in a new app outside the repository`, () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), `${name}-references-`)));
    const app = join(work, "tracker");
    after(() => rmSync(work, { recursive: true, force: true }));

    before(() => {
      assert.ok(existsSync(subject.builtMain), `build ${name} first: its dist/ is missing`);
      const init = run(work, commands.init, "--root", app);
      assert.equal(init.status, 0, init.stderr);
    }, budget(1));

    // Five runs of the CLI: two refused, three resources.
    test(
      "a reference needs its parent first; then the migration has the foreign key, its index and ON DELETE",
      budget(5),
      () => {
        const early = run(app, commands.resource, "Task", "title:string", "project:references");
        assert.notEqual(early.status, 0, "no Project model yet");
        assert.match(early.stderr, /E_RESOURCE_FIELD.*no Project model.*generate the Project resource first/);
        const unknown = run(app, commands.resource, "Task", "title:string", "project:has_many");
        assert.match(
          unknown.stderr,
          /the known types are string, text, integer, number, boolean, references \(or belongs_to\)/,
        );

        for (const args of [
          ["Project", "name:string"],
          ["Task", "title:string", "project:references"],
          // Rails' other word for it, in the JSON variant.
          ["Job", "title:string", "done:boolean", "project:belongs_to", "--api"],
          // An optional link (a nullable column): its generated tests must type-check and pass too.
          ["Idea", "body:string", "project:references?"],
          ["Remark", "body:string", "project:references?", "--api"],
        ]) {
          const made = run(app, commands.resource, ...args);
          assert.equal(made.status, 0, `${args.join(" ")}: ${made.stderr}`);
        }
        const migration = readdirSync(join(app, "migrations")).find((file) => file.endsWith("_create_tasks.ts"))!;
        const source = readFileSync(join(app, "migrations", migration), "utf8");
        assert.match(
          source,
          /table\.integer\("project_id"\)\.unsigned\(\)\.notNullable\(\)\.references\("id"\)\.inTable\("projects"\)\.onDelete\("RESTRICT"\);/,
        );
        assert.match(source, /table\.index\(\["project_id"\]\);/);
        assert.match(readFileSync(join(app, "lib/models/tasks.ts"), "utf8"), /project: \(\) => belongsTo\(Project\)/);
        assert.match(
          readFileSync(join(app, "lib/factories/tasks.ts"), "utf8"),
          /project_id: async \(\) => \(await Projects\.create\(\)\)\.id/,
          "a fake task gets its project from the project factory",
        );
        assert.match(readFileSync(join(app, "views/tasks.ts"), "utf8"), /Task\.preload\("project"\)/);
      },
    );

    test("the app type-checks and passes its generated tests with the foreign key in place", budget(0, 2), () => {
      const typecheck = sh(app, "npx --no-install tsc -p tsconfig.json --noEmit");
      assert.equal(typecheck.status, 0, `${typecheck.stdout}${typecheck.stderr}`);
      const tests = sh(app, "npm test");
      assert.equal(tests.status, 0, `${tests.stdout}${tests.stderr}`);
      assert.match(tests.stdout, /# fail 0/);
      const passed = Number(/# pass (\d+)/.exec(tests.stdout)?.[1]);
      // Projects: 4; tasks: 5 and jobs: 6, each with a test of a project that does not exist.
      assert.ok(passed >= subject.scaffoldTests + 4 + 5 + 6, `${passed} tests passed`);
      assert.match(tests.stdout, /ok \d+ - a task whose project does not exist is refused on that field/);
      assert.match(tests.stdout, /ok \d+ - a job whose project does not exist is refused on that field/);
    });

    test("the API's OpenAPI document has project_id in its input and the project in its answers", budget(1), () => {
      const printed = run(app, commands.routes, "--openapi");
      assert.equal(printed.status, 0, printed.stderr);
      const document = JSON.parse(printed.stdout) as Document;
      const jobs = document.paths[p("/jobs")]!;
      const input = resolved(document, jobs["post"]?.requestBody?.content["application/json"]?.schema);
      assert.equal(resolved(document, input.properties?.["project_id"]).type, "integer");
      const list = resolved(document, jobs["get"]?.responses["200"]?.content?.["application/json"]?.schema);
      const job = resolved(document, resolved(document, list.properties?.["jobs"]).items);
      assert.equal(resolved(document, job.properties?.["project_id"]).type, "integer");
      const project = resolved(document, job.properties?.["project"]);
      assert.deepEqual(Object.keys(project.properties ?? {}).sort(), ["id", "name"]);
      const patch = resolved(
        document,
        document.paths[p("/jobs/{id}")]?.["patch"]?.requestBody?.content["application/json"]?.schema,
      );
      assert.ok(!(patch as { required?: string[] }).required?.length, "the PATCH stays partial");
      const ignored = subject.trailingSlash ? ["no-path-trailing-slash"] : [];
      const errors = redoclyLint(document, ignored).filter((problem) => problem.severity === "error");
      assert.deepEqual(errors, []);
    });

    describe("in Chromium", () => {
      let server: ServedApp | undefined;
      let browser: Browser | undefined;
      before(
        async () => {
          assert.ok(
            existsSync(CHROMIUM),
            `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
          );
          const migrated = run(app, commands.migrate);
          assert.equal(migrated.status, 0, migrated.stderr);
          server = await serveApp(subject.bin, commands.serve, app, p("/tasks"));
          browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: SERVE_MS });
        },
        { timeout: CLI_RUN_MS + 2 * SERVE_MS },
      );
      after(async () => {
        await browser?.close();
        server?.stop();
      });

      test("the task form offers the projects; a project deleted meanwhile comes back on the field", async () => {
        const base = server!.base;
        const projects = await browser!.newPage();
        // Each page load is a request to the development server: Playwright's 30 s default is
        // short for one on a loaded machine, and the test's own timeout still ends a hang.
        projects.setDefaultTimeout(SERVE_MS);
        const shown = (table: string) => new RegExp(`/${table}/\\d+${subject.trailingSlash ? "\\/" : ""}$`);
        for (const project of ["Garden", "Kitchen"]) {
          await projects.goto(`${base}${p("/projects/new")}`);
          await projects.fill('[name="name"]', project);
          await Promise.all([
            projects.waitForURL(shown("projects")),
            projects.getByRole("button", { name: "Save" }).click(),
          ]);
        }

        const tasks = await browser!.newPage();
        tasks.setDefaultTimeout(SERVE_MS);
        await tasks.goto(`${base}${p("/tasks/new")}`);
        const select = tasks.locator('select[name="project_id"]');
        assert.deepEqual(await select.locator("option").allInnerTexts(), ["Choose a project", "Garden", "Kitchen"]);
        await tasks.fill('[name="title"]', "Wash the dishes");
        await select.selectOption({ label: "Kitchen" });

        // Meanwhile, in the other tab, the Kitchen project (the last one made) is deleted.
        await Promise.all([
          projects.waitForURL(`${base}${p("/projects")}`),
          projects.getByRole("button", { name: "Delete" }).click(),
        ]);
        await Promise.all([
          tasks.waitForURL(`${base}${p("/tasks/new")}`),
          tasks.getByRole("button", { name: "Save" }).click(),
        ]);
        assert.equal(await tasks.locator('[id$="project_id-error"]').innerText(), "Choose an existing project.");
        assert.equal(await tasks.inputValue('[name="title"]'), "Wash the dishes", "the old input is back");
        assert.deepEqual(await select.locator("option").allInnerTexts(), ["Choose a project", "Garden"]);

        // No project chosen: refused on the field too, in the form's own words.
        await tasks.locator("form", { has: select }).evaluate((form) => form.setAttribute("novalidate", ""));
        await Promise.all([
          tasks.waitForURL(`${base}${p("/tasks/new")}`),
          tasks.getByRole("button", { name: "Save" }).click(),
        ]);
        assert.equal(await tasks.locator('[id$="project_id-error"]').innerText(), "Choose a project.");

        await select.selectOption({ label: "Garden" });
        await Promise.all([tasks.waitForURL(shown("tasks")), tasks.getByRole("button", { name: "Save" }).click()]);
        assert.equal(await tasks.locator("dd.project").innerText(), "Garden");
        await tasks.goto(`${base}${p("/tasks")}`);
        assert.match(await tasks.locator("main").innerText(), /Wash the dishes[\s\S]*Garden/);
        await tasks.close();
        await projects.close();
      });
    });
  });
}
