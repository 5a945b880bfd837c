// A refused HTML form goes back to its page in a real browser. The security battery's default
// `Referrer-Policy: no-referrer` keeps Chromium from sending a Referer, so "back to the Referer"
// would send the browser to the POST-only URL (405) and lose the messages; the form's `_back`
// field (`back_path()` next to the CSRF token) names the page instead. Checked in Debian's
// Chromium through playwright-core, as a user would submit the form.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { createApp, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const root = fileURLToPath(new URL("./secure-app", import.meta.url));

describe("fw-a: a refused form in Chromium", () => {
  let app: Host;
  let url = "";
  let browser: Browser;
  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
    );
    app = await createApp({
      root,
      auth: { loadUser: () => undefined },
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:" },
    });
    url = (await listenForTest(app)).url;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-background-networking"],
    });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test("invalid input: back on the form's page with the field's message, the flash and the old input", async () => {
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    const referers: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") referers.push(request.headers()["referer"] ?? "");
    });
    const first = await page.goto(`${url}/form/`);
    assert.equal(first?.headers()["referrer-policy"], "no-referrer", "the app's own default suppresses the Referer");
    await page.fill('[name="email"]', "not-an-email");
    await page.fill('[name="name"]', "Ann");
    const [answer] = await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    assert.deepEqual(referers, [""], "Chromium sent the form without a Referer");
    assert.equal(answer?.status(), 200, `landed on ${page.url()}`);
    assert.equal(new URL(page.url()).pathname, "/form/");
    assert.match(await page.locator(".error").first().innerText(), /email/i);
    assert.match(await page.locator(".flash").first().innerText(), /email/);
    assert.equal(await page.inputValue('[name="email"]'), "not-an-email");
    await context.close();
  });
});
