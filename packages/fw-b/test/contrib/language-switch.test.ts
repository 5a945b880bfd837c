// The contrib layout's language switcher in Debian's Chromium (playwright-core): a visitor
// switches to French and keeps it on reload and across pages for the session (a new browser
// session starts from Accept-Language again); a logged-in user's switch is also saved in the
// account, so it follows them to their next session.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import type { UserRow } from "../../src/contrib/index.js";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

describe("the language switcher in a real browser", () => {
  let app: ContribApp;
  let browser: Browser;
  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
    );
    app = await startContribApp();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-background-networking"],
    });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const lang = (page: Page) => page.locator("html").getAttribute("lang");
  const heading = async (page: Page) => (await page.locator("main h1").first().innerText()).trim();
  const switchTo = async (page: Page, language: string) => {
    await page.selectOption("form.fwb-language select", language);
    await Promise.all([page.waitForLoadState("load"), page.locator("form.fwb-language button").click()]);
    await page.waitForLoadState("load");
  };
  const english = () =>
    browser.newContext({ locale: "en-US", extraHTTPHeaders: { "accept-language": "en-US,en;q=0.9" } });

  test("a visitor switches language: kept on reload and on other pages for the session, not beyond it", async () => {
    const context = await english();
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    assert.equal(await lang(page), "en");
    assert.equal(await heading(page), "Log in");
    const options = await page.locator("form.fwb-language option").allInnerTexts();
    assert.deepEqual(options, ["English", "Français", "Español", "Deutsch"], "each language named in its own words");

    await switchTo(page, "fr");
    assert.equal(new URL(page.url()).pathname, "/login", "back on the page the switch was made from");
    assert.equal(await lang(page), "fr");
    assert.equal(await heading(page), "Connexion");
    assert.equal(
      await page.locator("form.fwb-language select").inputValue(),
      "fr",
      "the switcher shows the current language",
    );
    await page.reload();
    assert.equal(await heading(page), "Connexion", "kept on reload");
    await page.goto(`${app.url}/signup`);
    assert.equal(await lang(page), "fr");
    assert.equal(await heading(page), "Créer un compte", "kept on other pages");

    const fresh = await (await english()).newPage();
    await fresh.goto(`${app.url}/login`);
    assert.equal(await lang(fresh), "en", "another browser session starts from its Accept-Language");
    await context.close();
  });

  test("a logged-in user's choice is kept in the account and follows them to a new session", async () => {
    await createUser(app, { username: "lena", password: "lena-password-1", name: "Lena" });
    const context = await english();
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    await switchTo(page, "es");
    assert.equal(await heading(page), "Iniciar sesión");
    await page.fill('[name="identifier"]', "lena");
    await page.fill('[name="password"]', "lena-password-1");
    await Promise.all([page.waitForLoadState("load"), page.locator('main form button[type="submit"]').click()]);
    await page.waitForLoadState("load");
    assert.equal(await lang(page), "es", "the session's choice survives the new session id of the login");

    await page.goto(`${app.url}/account`);
    await switchTo(page, "de");
    assert.equal(new URL(page.url()).pathname, "/account");
    assert.equal(await lang(page), "de");
    assert.equal(await heading(page), "Ihr Konto");
    const saved = (await app.models.users.findBy({ username: "lena" } as Partial<UserRow>)) as UserRow | undefined;
    assert.equal(saved?.locale, "de", "the choice is saved in the account");
    await context.close();

    const later = await (await english()).newPage();
    await later.goto(`${app.url}/login`);
    assert.equal(await lang(later), "en", "a new session, before logging in: the browser's language");
    await later.fill('[name="identifier"]', "lena");
    await later.fill('[name="password"]', "lena-password-1");
    await Promise.all([later.waitForLoadState("load"), later.locator('main form button[type="submit"]').click()]);
    await later.waitForLoadState("load");
    assert.equal(await lang(later), "de", "logged in again: the account's language");
  });

  test("a language the app does not offer is refused with 400 and a message, not a 500", async () => {
    const context = await english();
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    const token = await page.locator('form.fwb-language input[name="_csrf_token"]').inputValue();
    const response = await context.request.post(`${app.url}/language`, {
      form: { _csrf_token: token, language: "xx" },
      headers: { accept: "text/html" },
    });
    assert.equal(response.status(), 400);
    assert.match(await response.text(), /Pick one of the languages offered\./);
    await context.close();
  });

  test("the select and the button's icon sit side by side in the header, apart, wide and narrow", async () => {
    for (const width of [1280, 420]) {
      const context = await browser.newContext({ viewport: { width, height: 600 } });
      const page = await context.newPage();
      await page.goto(`${app.url}/login`);
      const select = (await page.locator("form.fwb-language select").boundingBox())!;
      const icon = (await page.locator("form.fwb-language button i.bi-translate").boundingBox())!;
      assert.ok(select && icon, "the select and the icon are shown");
      const sameRow = icon.y < select.y + select.height && select.y < icon.y + icon.height;
      assert.ok(sameRow, `${width}px: the icon is on the select's row`);
      assert.ok(
        icon.x - (select.x + select.width) >= 4,
        `${width}px: the icon starts ${icon.x - (select.x + select.width)}px after the select (at least 4px)`,
      );
      const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
      assert.ok(overflow <= 0, `${width}px: the header fits the window (${overflow}px too wide)`);
      await context.close();
    }
  });
});

test("the switcher only sends back to a path of this site (no open redirect)", async () => {
  const { backTo } = await import("../../src/contrib/i18n/views.js");
  assert.equal(backTo("/account?tab=1"), "/account?tab=1");
  for (const next of [
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "javascript:alert(1)",
    "/a\r\nLocation: x",
    42,
    undefined,
  ]) {
    assert.equal(backTo(next), "/", String(next));
  }
});
