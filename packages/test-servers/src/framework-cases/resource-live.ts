/**
 * The resource generator's `--live`, as a user runs it in a new app outside the repository, for
 * both frameworks: the list page's channel goes into the config, the view broadcasts each change,
 * the page loads the list script (a static file); without the flag nothing realtime is written; the
 * app passes its generated tests; and in Chromium a list page open in one browser shows a row
 * created, edited and deleted in another, without a reload.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type Browser, chromium } from "playwright-core";
import {
  budget,
  CHROMIUM,
  CHROMIUM_ARGS,
  CLI_RUN_MS,
  cleanEnv,
  SERVE_MS,
  type ServedApp,
  serveApp,
  sh,
} from "./generated-app.js";
import type { ResourceGeneratorSubject } from "./resource-generator.js";

/** Registers the `--live` cases for one framework. */
export function resourceLiveCases(subject: ResourceGeneratorSubject): void {
  const { commands, name } = subject;
  const run = (cwd: string, ...args: string[]) =>
    spawnSync(process.execPath, [subject.bin, ...args], { cwd, encoding: "utf8", env: cleanEnv() });
  const p = (path: string) => (subject.trailingSlash ? `${path}/` : path);
  const field = (id: string) => `#${subject.fieldId(id)}`;
  const ext = subject.templateExtension;

  describe(`${name} ${commands.resource} --live: the list page updates as rows change`, () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), `${name}-live-`)));
    const app = join(work, "live-app");
    const read = (file: string) => readFileSync(join(app, file), "utf8");
    after(() => rmSync(work, { recursive: true, force: true }));

    before(() => {
      assert.ok(existsSync(subject.builtMain), `build ${name} first: its dist/ is missing`);
      const init = run(work, commands.init, "--root", app);
      assert.equal(init.status, 0, init.stderr);
    }, budget(1));

    // Five runs of the CLI: the live resource, one without the flag, and three refusals.
    test(
      "--live writes the channel, the broadcasts and the list script; without it nothing realtime",
      budget(5),
      () => {
        const live = run(app, commands.resource, "Todo", "title:string", "done:boolean", "--live");
        assert.equal(live.status, 0, live.stderr);
        assert.match(live.stdout, /create {2}static\/js\/live-list\.js/);
        assert.match(live.stdout, /update {2}lib\/config\.ts/);
        // The pages are public, so is their channel; declaring it switches the realtime battery on.
        assert.match(read("lib/config.ts"), /realtime: \{\n {4}channels: \{\n.*\n {6}todos: \{ public: true \},/);
        const view = read("views/todos.ts");
        for (const event of ["created", "updated", "deleted"])
          assert.match(view, new RegExp(`broadcast\\("todos", "${event}"`));
        const index = read(`templates/todos/Todos/index.${ext}`);
        assert.match(index, /data-live-events/);
        assert.match(index, /live-list\.js/);
        assert.doesNotMatch(index, /<script>|script\.|script\(\)/, "no inline script: the app's CSP holds");
        assert.match(read("static/js/live-list.js"), /new EventSource/);

        const plain = run(app, commands.resource, "Memo", "title:string");
        assert.equal(plain.status, 0, plain.stderr);
        assert.doesNotMatch(read("views/memos.ts"), /broadcast/);
        assert.doesNotMatch(read(`templates/memos/Memos/index.${ext}`), /data-live|live-list|_events/);
        assert.doesNotMatch(read("lib/config.ts"), /memos/);

        const config = read("lib/config.ts");
        const misspelt = run(app, commands.resource, "Note2", "title:string", "--lve");
        assert.notEqual(misspelt.status, 0);
        assert.match(misspelt.stderr, /Unknown option --lve.*--api, --live/s, "the known flags are named");
        const both = run(app, commands.resource, "Card", "title:string", "--live", "--api");
        assert.notEqual(both.status, 0);
        assert.match(both.stderr, /E_CLI_USAGE: --live .*--api/);
        assert.ok(!existsSync(join(app, "views/cards.ts")), "nothing written");
        assert.equal(read("lib/config.ts"), config);
      },
    );

    test("the app type-checks and passes its generated tests, the broadcasts' included", budget(0, 2), () => {
      const typecheck = sh(app, "npx --no-install tsc -p tsconfig.json --noEmit");
      assert.equal(typecheck.status, 0, `${typecheck.stdout}${typecheck.stderr}`);
      const tests = sh(app, "npm test");
      assert.equal(tests.status, 0, `${tests.stdout}${tests.stderr}`);
      assert.match(tests.stdout, /# fail 0/);
      assert.match(tests.stdout, /ok \d+ - each change is broadcast to the list page on the todos channel/);
    });

    describe("in Chromium", () => {
      let server: ServedApp | undefined;
      let browser: Browser | undefined;
      before(
        async () => {
          assert.ok(existsSync(CHROMIUM), `Chromium is missing at ${CHROMIUM}: install it, or set CHROMIUM_PATH`);
          const migrated = run(app, commands.migrate);
          assert.equal(migrated.status, 0, migrated.stderr);
          server = await serveApp(subject.bin, commands.serve, app, p("/todos"));
          browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: SERVE_MS });
        },
        { timeout: CLI_RUN_MS + 2 * SERVE_MS },
      );
      after(async () => {
        await browser?.close();
        server?.stop();
      });

      test("a row created, edited and deleted in one browser shows in another's list without a reload", async () => {
        const base = server!.base;
        // Two browser contexts: two users with sessions of their own.
        const watcher = await (await browser!.newContext()).newPage();
        const editor = await (await browser!.newContext()).newPage();
        watcher.setDefaultTimeout(SERVE_MS);
        editor.setDefaultTimeout(SERVE_MS);
        // The list page's stream is open (its headers arrived) before anything changes.
        const stream = watcher.waitForResponse((response) => response.url().includes("/_events?channel=todos"));
        await watcher.goto(`${base}${p("/todos")}`);
        assert.equal((await stream).status(), 200);
        assert.match(await watcher.locator("main").innerText(), /No todos yet/);
        await watcher.evaluate("window.notReloaded = true");

        await editor.goto(`${base}${p("/todos/new")}`);
        await editor.fill(field("title"), "Live row");
        await editor.check(field("done"));
        const shown = new RegExp(`/todos/(\\d+)${subject.trailingSlash ? "/" : ""}$`);
        await Promise.all([editor.waitForURL(shown), editor.getByRole("button", { name: "Save" }).click()]);
        const id = shown.exec(editor.url())![1]!;

        const link = watcher.locator("[data-live-list]").getByRole("link", { name: "Live row" });
        await link.waitFor();
        assert.equal(await link.getAttribute("href"), p(`/todos/${id}`), "the new row links to its page");
        assert.equal(await watcher.getByText("No todos yet").isVisible(), false);

        await editor.goto(`${base}${p(`/todos/edit/${id}`)}`);
        await editor.fill(field("title"), "Live row, edited");
        await Promise.all([editor.waitForURL(shown), editor.getByRole("button", { name: "Save" }).click()]);
        await watcher.locator("[data-live-list]").getByRole("link", { name: "Live row, edited" }).waitFor();
        assert.equal(await watcher.locator("[data-live-list] > *").count(), 1, "the row was replaced, not added");

        await Promise.all([
          editor.waitForURL(`${base}${p("/todos")}`),
          editor.getByRole("button", { name: "Delete" }).click(),
        ]);
        await watcher.getByText("No todos yet").waitFor({ state: "visible" });
        assert.equal(await watcher.locator("[data-live-list] > *").count(), 0);
        assert.equal(await watcher.evaluate("window.notReloaded"), true, "the list page was never reloaded");
      });
    });
  });
}
