// `fw-b :resource` in a new app outside the repository, as a user runs it: the HTML resource
// and a JSON one (--api) are written next to the scaffold's own files, a clashing name is refused
// with nothing written, the app type-checks and passes its generated tests, the API's OpenAPI
// document passes Redocly's recommended rules, and in Chromium a todo is created (after the form
// came back with a message), edited and deleted. Runs the built CLI (dist), like cli-e2e.test.ts.
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { redoclyLint } from "@fwkit/test-servers/openapi";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const bin = fileURLToPath(new URL("../bin/fw-b.js", import.meta.url));
const env = () => {
  const vars: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "", FW_TS_LOADER: "" };
  delete vars["NODE_TEST_CONTEXT"];
  delete vars["APP_ENV"];
  return vars;
};
const fwb = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", env: env() });
const sh = (cwd: string, command: string) =>
  spawnSync("sh", ["-c", command], { cwd, encoding: "utf8", env: env(), timeout: 300_000 });

function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: false })
    .map(String)
    .filter((path) => !path.startsWith("node_modules") && !path.startsWith("data"))
    .sort();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("fw-b :resource in a new app outside the repository", () => {
  const work = realpathSync(mkdtempSync(join(tmpdir(), "fw-b-resource-")));
  const app = join(work, "todo-app");
  after(() => rmSync(work, { recursive: true, force: true }));

  before(() => {
    assert.ok(
      existsSync(fileURLToPath(new URL("../dist/cli/main.js", import.meta.url))),
      "build fw-b first: its dist/ is missing",
    );
    const init = fwb(work, ":init", "--root", app);
    assert.equal(init.status, 0, init.stderr);
  });

  test("writes the HTML resource and the JSON one; a clash is refused with nothing written", () => {
    const html = fwb(app, ":resource", "Todo", "title:string", "details:text?", "done:boolean", "priority:integer?");
    assert.equal(html.status, 0, html.stderr);
    for (const file of [
      "lib/models/todos.ts",
      "lib/factories/todos.ts",
      "views/todos.ts",
      "templates/todos/Todos/_form.pug",
      "templates/todos/Todos/edit.pug",
      "test/todos.test.ts",
    ]) {
      assert.match(html.stdout, new RegExp(`create  ${file.replace(/\./g, "\\.")}`));
    }
    assert.match(html.stdout, /create {2}migrations\/\d{14}_create_todos\.ts/);
    assert.match(readFileSync(join(app, "lib/models.ts"), "utf8"), /export \* from "\.\/models\/todos\.js";\n$/);
    const api = fwb(app, ":resource", "Task", "title:string", "estimate:number", "done:boolean", "--api");
    assert.equal(api.status, 0, api.stderr);
    assert.ok(!existsSync(join(app, "templates/tasks")), "the JSON variant has no templates");

    const before = listing(app);
    const models = readFileSync(join(app, "lib/models.ts"), "utf8");
    for (const [args, clash] of [
      [["Todo", "title:string"], /lib\/models\/todos\.ts/],
      [["todo", "name:string"], /lib\/models\/todos\.ts/],
      // The scaffold's own Product: its migration and model are there, under other file names.
      [["Product", "title:string"], /create_products\.ts \(the products table\)/],
    ] as const) {
      const refused = fwb(app, ":resource", ...args);
      assert.notEqual(refused.status, 0, `${args.join(" ")} is refused`);
      assert.match(refused.stderr, /E_RESOURCE_EXISTS/);
      assert.match(refused.stderr, clash);
    }
    const badField = fwb(app, ":resource", "Memo", "title:strng");
    assert.notEqual(badField.status, 0);
    assert.match(badField.stderr, /E_RESOURCE_FIELD.*string, text, integer, number, boolean/);
    assert.deepEqual(listing(app), before, "nothing written by a refused generation");
    assert.equal(readFileSync(join(app, "lib/models.ts"), "utf8"), models);
  });

  test("the app type-checks and passes its generated tests", () => {
    const typecheck = sh(app, "npx --no-install tsc -p tsconfig.json --noEmit");
    assert.equal(typecheck.status, 0, `${typecheck.stdout}${typecheck.stderr}`);
    const tests = sh(app, "npm test");
    assert.equal(tests.status, 0, `${tests.stdout}${tests.stderr}`);
    assert.match(tests.stdout, /# fail 0/);
    const passed = Number(/# pass (\d+)/.exec(tests.stdout)?.[1]);
    assert.ok(passed >= 3 + 4 + 4, `${passed} tests passed: the scaffold's and four per resource`);
  });

  test("the JSON resource is in a valid OpenAPI document", () => {
    const printed = fwb(app, ":routes", "--openapi");
    assert.equal(printed.status, 0, printed.stderr);
    const document = JSON.parse(printed.stdout) as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    assert.ok(document.paths["/tasks"]?.["post"]?.requestBody, "POST /tasks documents its body");
    assert.ok(document.paths["/tasks/{id}"]?.["patch"], "PATCH /tasks/{id} is documented");
    const errors = redoclyLint(document).filter((problem) => problem.severity === "error");
    assert.deepEqual(errors, []);
  });

  describe("in Chromium", () => {
    let server: ChildProcess | undefined;
    let browser: Browser | undefined;
    let base = "";
    let output = "";
    before(async () => {
      assert.ok(
        existsSync(CHROMIUM),
        `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
      );
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      server = spawn(process.execPath, [bin, ":serve", "--port", String(port), "--no-reload"], {
        cwd: app,
        env: env(),
        stdio: ["ignore", "pipe", "pipe"],
      });
      server.stdout!.on("data", (chunk) => (output += chunk));
      server.stderr!.on("data", (chunk) => (output += chunk));
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ready = await fetch(`${base}/todos`).then(
          (res) => res.status === 200,
          () => false,
        );
        if (ready) break;
        assert.ok(Date.now() < deadline && server.exitCode === null, `the app did not serve /todos:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-background-networking"],
      });
    });
    after(async () => {
      await browser?.close();
      server?.kill("SIGTERM");
    });

    test("create (after a refused form), edit, delete", async () => {
      const page = await browser!.newPage();
      await page.goto(`${base}/`);
      await Promise.all([
        page.waitForURL(`${base}/todos`),
        page.locator("nav").getByRole("link", { name: "Todos" }).click(),
      ]);
      assert.match(await page.locator("main").innerText(), /No todos yet/);
      await Promise.all([page.waitForURL(`${base}/todos/new`), page.getByRole("link", { name: "New todo" }).click()]);

      // An empty title: the browser's own check is bypassed so the server's answer is seen.
      await page.locator("form").evaluate((form) => form.setAttribute("novalidate", ""));
      await page.fill("#details", "kept after the refusal");
      await Promise.all([page.waitForURL(`${base}/todos/new`), page.getByRole("button", { name: "Save" }).click()]);
      assert.match(await page.locator("#title-error").innerText(), /./, "the title's message is shown on the form");
      assert.equal(await page.inputValue("#details"), "kept after the refusal", "the old input is back in the form");

      await page.fill("#title", "Water the plants");
      await page.check("#done");
      await page.fill("#priority", "2");
      await Promise.all([page.waitForURL(/\/todos\/\d+$/), page.getByRole("button", { name: "Save" }).click()]);
      assert.equal(await page.locator("main h1").innerText(), "Water the plants");
      assert.match(await page.locator(".fwb-flash").innerText(), /Todo created/);
      assert.equal(await page.locator("dd.done").innerText(), "yes");

      await Promise.all([page.waitForURL(/\/todos\/edit\/\d+$/), page.getByRole("link", { name: "Edit" }).click()]);
      assert.equal(await page.inputValue("#title"), "Water the plants");
      await page.fill("#title", "Water the garden");
      await page.uncheck("#done");
      await Promise.all([page.waitForURL(/\/todos\/\d+$/), page.getByRole("button", { name: "Save" }).click()]);
      assert.equal(await page.locator("main h1").innerText(), "Water the garden");
      assert.equal(await page.locator("dd.done").innerText(), "no");

      await Promise.all([page.waitForURL(`${base}/todos`), page.getByRole("button", { name: "Delete" }).click()]);
      assert.match(await page.locator(".fwb-flash").innerText(), /Todo deleted/);
      assert.match(await page.locator("main").innerText(), /No todos yet/);
      await page.close();
    });
  });
});
