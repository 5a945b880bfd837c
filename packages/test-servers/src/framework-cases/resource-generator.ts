/**
 * The resource generator, as a user runs it in a new app outside the repository, written once and
 * run by both frameworks' tests: the HTML resource and a JSON one (--api) are written next to the
 * scaffold's own files, a clashing name is refused with nothing written, the app type-checks and
 * passes its generated tests, the API's OpenAPI document passes Redocly's recommended rules, and in
 * Chromium a todo is created (after the form came back with a message), edited and deleted. Runs
 * the framework's built CLI (dist).
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { redoclyLint } from "../openapi-tools.js";
import { budget, CHROMIUM, CHROMIUM_ARGS, CLI_RUN_MS, cleanEnv, freePort, SERVE_MS, sh } from "./generated-app.js";

/** The framework under test, as {@link resourceGeneratorCases} needs it. */
export interface ResourceGeneratorSubject {
  /** The framework's name, in titles and temporary folders. */
  readonly name: string;
  /** Its CLI's entry (`bin/fw-a.js`), and its built main, which must exist. */
  readonly bin: string;
  readonly builtMain: string;
  /** Its command names: `gen:init` / `:init` and the others. */
  readonly commands: {
    readonly init: string;
    readonly resource: string;
    readonly routes: string;
    readonly serve: string;
    readonly migrate: string;
  };
  /** The template extension of its pages (`html`, `pug`). */
  readonly templateExtension: string;
  /** The model every new app has, and the clash message for it (its migration's file name and table). */
  readonly scaffoldModel: { readonly name: string; readonly clash: RegExp };
  /** How many tests a new app's own example suite has. */
  readonly scaffoldTests: number;
  /** True when generated paths end with `/`. */
  readonly trailingSlash: boolean;
  /** The form field id of a generated resource's field (`todos-title`, `title`). */
  fieldId(field: string): string;
  /** The flash message's and the page heading's selectors in its layout. */
  readonly flash: string;
  readonly heading: string;
  /** Opens the generated list page the way its layout offers it (a URL, or a menu link). */
  openList(page: Page, base: string, list: string): Promise<void>;
}

/**
 * The app's files, outside node_modules and data. The walk never enters node_modules: its links
 * lead into the whole workspace, whose temporary folders other tests create and remove meanwhile
 * (a scan of them failed with ENOENT, and took minutes on a busy machine).
 */
function listing(dir: string, prefix = ""): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (!prefix && (entry.name === "node_modules" || entry.name === "data")) continue;
    found.push(path);
    if (entry.isDirectory()) found.push(...listing(dir, path));
  }
  return found.sort();
}

/** A computed style property of the first element matching `selector`, in the page. */
const style = (page: Page, selector: string, property: string) =>
  page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).${property}`);

/** Registers the resource generator's cases for one framework. */
export function resourceGeneratorCases(subject: ResourceGeneratorSubject): void {
  const { commands, name } = subject;
  const run = (cwd: string, ...args: string[]) =>
    spawnSync(process.execPath, [subject.bin, ...args], { cwd, encoding: "utf8", env: cleanEnv() });
  const p = (path: string) => (subject.trailingSlash ? `${path}/` : path);
  const slash = subject.trailingSlash ? "\\/" : "";
  const field = (id: string) => `#${subject.fieldId(id)}`;

  describe(`${name} ${commands.resource} in a new app outside the repository`, () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), `${name}-resource-`)));
    const app = join(work, "todo-app");
    after(() => rmSync(work, { recursive: true, force: true }));

    before(() => {
      assert.ok(existsSync(subject.builtMain), `build ${name} first: its dist/ is missing`);
      const init = run(work, commands.init, "--root", app);
      assert.equal(init.status, 0, init.stderr);
    }, budget(1));

    // Seven runs of the CLI: the two resources, three clashes and a bad field.
    test("writes the HTML resource and the JSON one; a clash is refused with nothing written", budget(7), () => {
      const html = run(
        app,
        commands.resource,
        "Todo",
        "title:string",
        "details:text?",
        "done:boolean",
        "priority:integer?",
      );
      assert.equal(html.status, 0, html.stderr);
      const ext = subject.templateExtension;
      for (const file of [
        "lib/models/todos.ts",
        "lib/factories/todos.ts",
        "views/todos.ts",
        `templates/todos/Todos/_form.${ext}`,
        `templates/todos/Todos/edit.${ext}`,
        "test/todos.test.ts",
      ]) {
        assert.match(html.stdout, new RegExp(`create  ${file.replace(/\./g, "\\.")}`));
      }
      assert.match(
        html.stdout,
        /create {2}migrations\/\d{14}_create_todos\.ts \(a draft: the development server applies it once you edit it/,
      );
      // Like a migration from the make-migration command, the development server leaves it until it is edited.
      const migration = readdirSync(join(app, "migrations")).find((file) => file.endsWith("_create_todos.ts"))!;
      assert.match(readFileSync(join(app, "migrations", migration), "utf8"), /^\/\/ fw:draft [0-9a-f]{16}/);
      assert.match(readFileSync(join(app, "lib/models.ts"), "utf8"), /export \* from "\.\/models\/todos\.js";\n$/);
      const api = run(app, commands.resource, "Task", "title:string", "estimate:number", "done:boolean", "--api");
      assert.equal(api.status, 0, api.stderr);
      assert.ok(!existsSync(join(app, "templates/tasks")), "the JSON variant has no templates");
      const apiView = readFileSync(join(app, "views/tasks.ts"), "utf8");
      assert.match(apiView, /export const TaskPatch = z\.object\(/, "a PATCH has its own schema");
      assert.doesNotMatch(apiView, /tasks_item|Boolean\(/, "rows are answered under `task`, as the model returns them");

      const before = listing(app);
      const models = readFileSync(join(app, "lib/models.ts"), "utf8");
      for (const [args, clash] of [
        [["Todo", "title:string"], /lib\/models\/todos\.ts/],
        [["todo", "name:string"], /lib\/models\/todos\.ts/],
        // The scaffold's own model: its migration and model are there, under other file names.
        [[subject.scaffoldModel.name, "title:string"], subject.scaffoldModel.clash],
      ] as const) {
        const refused = run(app, commands.resource, ...args);
        assert.notEqual(refused.status, 0, `${args.join(" ")} is refused`);
        assert.match(refused.stderr, /E_RESOURCE_EXISTS/);
        assert.match(refused.stderr, clash);
      }
      const badField = run(app, commands.resource, "Memo", "title:strng");
      assert.notEqual(badField.status, 0);
      assert.match(badField.stderr, /E_RESOURCE_FIELD.*string, text, integer, number, boolean/);
      assert.deepEqual(listing(app), before, "nothing written by a refused generation");
      assert.equal(readFileSync(join(app, "lib/models.ts"), "utf8"), models);
    });

    test("the app type-checks and passes its generated tests", budget(0, 2), () => {
      const typecheck = sh(app, "npx --no-install tsc -p tsconfig.json --noEmit");
      assert.equal(typecheck.status, 0, `${typecheck.stdout}${typecheck.stderr}`);
      const tests = sh(app, "npm test");
      assert.equal(tests.status, 0, `${tests.stdout}${tests.stderr}`);
      assert.match(tests.stdout, /# fail 0/);
      const passed = Number(/# pass (\d+)/.exec(tests.stdout)?.[1]);
      assert.ok(
        passed >= subject.scaffoldTests + 4 + 5,
        `${passed} tests passed: the scaffold's, four for the pages and five for the API`,
      );
      assert.match(tests.stdout, /ok \d+ - a PATCH changes only the fields it sends/);
    });

    test("the JSON resource is in a valid OpenAPI document", budget(1), () => {
      const printed = run(app, commands.routes, "--openapi");
      assert.equal(printed.status, 0, printed.stderr);
      const document = JSON.parse(printed.stdout) as {
        paths: Record<string, Record<string, { requestBody?: unknown }>>;
      };
      assert.ok(document.paths[p("/tasks")]?.["post"]?.requestBody, `POST ${p("/tasks")} documents its body`);
      assert.ok(document.paths[p("/tasks/{id}")]?.["patch"], `PATCH ${p("/tasks/{id}")} is documented`);
      // A trailing slash is the framework's convention, not a defect of the document.
      const ignored = subject.trailingSlash ? ["no-path-trailing-slash"] : [];
      const errors = redoclyLint(document, ignored).filter((problem) => problem.severity === "error");
      assert.deepEqual(errors, []);
    });

    describe("in Chromium", () => {
      let server: ChildProcess | undefined;
      let browser: Browser | undefined;
      let base = "";
      let output = "";
      // The hook's work: one run of the CLI (migrate), the server's start and Chromium's.
      before(
        async () => {
          assert.ok(
            existsSync(CHROMIUM),
            `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
          );
          // The generated migrations are drafts: applied here by the migrate command, as a user who keeps them as written does.
          const migrated = run(app, commands.migrate);
          assert.equal(migrated.status, 0, migrated.stderr);
          assert.match(`${migrated.stdout}${migrated.stderr}`, /create_todos/);
          const port = await freePort();
          base = `http://127.0.0.1:${port}`;
          server = spawn(process.execPath, [subject.bin, commands.serve, "--port", String(port), "--no-reload"], {
            cwd: app,
            env: cleanEnv(),
            stdio: ["ignore", "pipe", "pipe"],
          });
          server.stdout!.on("data", (chunk) => (output += chunk));
          server.stderr!.on("data", (chunk) => (output += chunk));
          const deadline = Date.now() + SERVE_MS;
          for (;;) {
            const ready = await fetch(`${base}${p("/todos")}`).then(
              (res) => res.status === 200,
              () => false,
            );
            if (ready) break;
            assert.ok(
              Date.now() < deadline && server.exitCode === null,
              `the app did not serve ${p("/todos")}:\n${output}`,
            );
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
          browser = await chromium.launch({
            executablePath: CHROMIUM,
            args: CHROMIUM_ARGS,
            timeout: SERVE_MS,
          });
        },
        { timeout: CLI_RUN_MS + 2 * SERVE_MS },
      );
      after(async () => {
        await browser?.close();
        server?.kill("SIGTERM");
      });

      test("create (after a refused form), edit, delete", async () => {
        const page = await browser!.newPage();
        // Each page load is a request to the development server: Playwright's 30 s default is
        // short for one on a loaded machine, and the test's own timeout still ends a hang.
        page.setDefaultTimeout(SERVE_MS);
        await subject.openList(page, base, `${base}${p("/todos")}`);
        assert.match(await page.locator("main").innerText(), /No todos yet/);
        await Promise.all([
          page.waitForURL(`${base}${p("/todos/new")}`),
          page.getByRole("link", { name: "New todo" }).click(),
        ]);

        // An empty title: the browser's own check is bypassed so the server's answer is seen.
        await page.locator("form").evaluate((form) => form.setAttribute("novalidate", ""));
        await page.fill(field("details"), "kept after the refusal");
        await Promise.all([
          page.waitForURL(`${base}${p("/todos/new")}`),
          page.getByRole("button", { name: "Save" }).click(),
        ]);
        assert.match(await page.locator(`${field("title")}-error`).innerText(), /./, "the title's message is shown");
        assert.notEqual(
          await style(page, `${field("title")}-error`, "color"),
          await style(page, "body", "color"),
          "the layout's stylesheet sets the field's message apart by its colour",
        );
        assert.equal(await page.inputValue(field("details")), "kept after the refusal", "the old input is back");

        const shown = new RegExp(`/todos/\\d+${slash}$`);
        await page.fill(field("title"), "Water the plants");
        await page.check(field("done"));
        await page.fill(field("priority"), "2");
        await Promise.all([page.waitForURL(shown), page.getByRole("button", { name: "Save" }).click()]);
        assert.equal(await page.locator(subject.heading).innerText(), "Water the plants");
        assert.match(await page.locator(subject.flash).innerText(), /Todo created/);
        assert.notEqual(
          await style(page, subject.flash, "backgroundColor"),
          "rgba(0, 0, 0, 0)",
          "the layout's stylesheet gives the flash message its own background",
        );
        assert.equal(await page.locator("dd.done").innerText(), "yes");

        await Promise.all([
          page.waitForURL(new RegExp(`/todos/edit/\\d+${slash}$`)),
          page.getByRole("link", { name: "Edit" }).click(),
        ]);
        assert.equal(await page.inputValue(field("title")), "Water the plants");
        await page.fill(field("title"), "Water the garden");
        await page.uncheck(field("done"));
        await Promise.all([page.waitForURL(shown), page.getByRole("button", { name: "Save" }).click()]);
        assert.equal(await page.locator(subject.heading).innerText(), "Water the garden");
        assert.equal(await page.locator("dd.done").innerText(), "no");

        await Promise.all([
          page.waitForURL(`${base}${p("/todos")}`),
          page.getByRole("button", { name: "Delete" }).click(),
        ]);
        assert.match(await page.locator(subject.flash).innerText(), /Todo deleted/);
        assert.match(await page.locator("main").innerText(), /No todos yet/);
        await page.close();
      });
    });
  });
}
