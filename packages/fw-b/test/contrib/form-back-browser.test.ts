// A refused HTML form goes back to its page in a real browser: fw-b's Notes pattern (a form on
// `/notes` posting to the POST-only `/notes/create` with `@body(NoteIn)`). The security battery's
// default `Referrer-Policy: no-referrer` keeps Chromium from sending a Referer, so "back to the
// Referer" would land on `/notes/create` (405) and lose the messages; the form's `_back` field
// (`back_path()`, written next to the CSRF token, and by contrib's `+csrf()` mixin) names the page.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser } from "playwright-core";
import { z } from "zod";
import { createApp, flash, FwB, request, type Host } from "../../src/index.js";
import { body } from "../../src/decorators/index.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

const NoteIn = z.object({ title: z.string().trim().min(3).max(100) });
const saved: string[] = [];

class Notes extends FwB {
  index() {
    return { notes: saved };
  }
  @request.post @body(NoteIn) create() {
    saved.push(this.input(NoteIn).title);
    flash(this.ctx, "success", "Saved");
    return this.redirect("/notes");
  }
}

const TEMPLATE = `doctype html
html
  body
    each m in flash_messages
      p(class="flash " + m.kind)= m.message
    form(method="post" action="/notes/create")
      input(type="hidden" name="_csrf_token" value=csrf_token())
      input(type="hidden" name="_back" value=back_path())
      input(name="title" value=old.title)
      if errors.title
        span.error= errors.title[0]
      button(type="submit") Save
    ul
      each note in notes
        li= note
`;

describe("fw-b: a refused form in Chromium", () => {
  let host: Host;
  let root = "";
  let url = "";
  let browser: Browser;
  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
    );
    root = mkdtempSync(join(tmpdir(), "fw-b-form-back-"));
    const file = join(root, "templates/main/Notes/index.pug");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, TEMPLATE);
    host = await createApp({
      root,
      modules: [{ name: "main", exports: { Notes } }],
      config: {
        env: "test",
        logRequests: false,
        secretKey: "form-back-test-secret-key-0123456789",
        dbUrl: "sqlite::memory:",
      },
    });
    const server = await host.listen(0, "127.0.0.1");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-background-networking"],
    });
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("invalid input: back on /notes with the field's message and the old input; valid input is saved", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const referers: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") referers.push(request.headers()["referer"] ?? "");
    });
    const first = await page.goto(`${url}/notes`);
    assert.equal(first?.headers()["referrer-policy"], "no-referrer", "the app's own default suppresses the Referer");
    await page.fill('[name="title"]', "ab");
    const [refused] = await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    assert.deepEqual(referers, [""], "Chromium sent the form without a Referer");
    assert.equal(refused?.status(), 200, `landed on ${page.url()}`);
    assert.equal(new URL(page.url()).pathname, "/notes");
    assert.match(await page.locator("span.error").innerText(), /3/);
    assert.equal(await page.inputValue('[name="title"]'), "ab");

    await page.fill('[name="title"]', "Buy milk");
    await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    assert.equal(new URL(page.url()).pathname, "/notes");
    assert.match(await page.locator(".flash.success").innerText(), /Saved/);
    assert.deepEqual(saved, ["Buy milk"]);
    await context.close();
  });
});
