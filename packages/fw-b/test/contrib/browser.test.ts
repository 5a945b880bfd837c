// As a new user would, in Debian's Chromium driven by playwright-core: sign up, confirm the
// address from the mail, log in, change the password, log out, reset a forgotten password from
// the mailed link, be refused the admin area; then as an admin: deactivate a user (refused at
// login), read a contact message, switch maintenance on (503 for visitors, the admin still
// works). Screenshots of the login page, the admin user list and an error page in both themes go
// to test/screenshots/.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { createUser, linkIn, startContribApp, type ContribApp } from "./fixture.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const SHOTS = fileURLToPath(new URL("../screenshots/", import.meta.url));

describe("contrib in a real browser", () => {
  let app: ContribApp;
  let browser: Browser;
  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
    );
    mkdirSync(SHOTS, { recursive: true });
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

  const fill = async (page: Page, fields: Record<string, string>) => {
    for (const [name, value] of Object.entries(fields)) await page.fill(`[name="${name}"]`, value);
  };
  const captcha = async (page: Page) => {
    if (await page.locator('[name="captcha"]').count()) await page.fill('[name="captcha"]', app.captcha.last);
  };
  const submit = async (page: Page, selector = 'main form button[type="submit"]') => {
    await Promise.all([page.waitForLoadState("load"), page.locator(selector).first().click()]);
    await page.waitForLoadState("load");
  };
  const flash = (page: Page) =>
    page
      .locator(".fwb-flash")
      .allInnerTexts()
      .then((texts) => texts.join(" | "));

  test("a new user: sign up, confirm, log in, change the password, log out, reset it, be refused the admin area", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/signup`);
    await fill(page, {
      username: "newton",
      email: "newton@example.test",
      name: "Isaac Newton",
      password: "apple-falls-1",
      password_confirm: "apple-falls-1",
    });
    await captcha(page);
    await submit(page);
    assert.equal(new URL(page.url()).pathname, "/login");
    assert.match(await flash(page), /Check your mail/);

    const verify = await app.nextMail();
    await page.goto(linkIn(verify.text, "/verify-email/"));
    assert.match(await flash(page), /your email address is confirmed/);

    await fill(page, { identifier: "newton", password: "apple-falls-1" });
    await submit(page);
    assert.equal(new URL(page.url()).pathname, "/");
    assert.match(await flash(page), /Welcome, Isaac Newton!/);

    await page.goto(`${app.url}/account/password`);
    await fill(page, {
      current_password: "apple-falls-1",
      password: "gravity-wins-2",
      password_confirm: "gravity-wins-2",
    });
    await submit(page);
    assert.match(await flash(page), /Your password is changed\./);

    await submit(page, 'header form[action="/logout"] button');
    assert.match(await flash(page), /You are logged out\./);
    assert.equal((await page.locator('a[href="/login"]').count()) > 0, true);

    await page.goto(`${app.url}/lost-password`);
    await fill(page, { email: "newton@example.test" });
    await captcha(page);
    await submit(page);
    assert.match(await flash(page), /If an account uses that address/);
    const reset = await app.nextMail();
    await page.goto(linkIn(reset.text, "/reset-password/"));
    await fill(page, { password: "orbits-too-3", password_confirm: "orbits-too-3" });
    await submit(page);
    assert.match(await flash(page), /Your password is changed\. Log in with it now\./);
    await fill(page, { identifier: "newton@example.test", password: "orbits-too-3" });
    await submit(page);
    assert.equal(new URL(page.url()).pathname, "/");

    const refused = await page.goto(`${app.url}/admin`);
    assert.equal(refused?.status(), 403);
    assert.match(await page.locator("h1").innerText(), /Not allowed/);
    await context.close();
  });

  test("an admin: the user list, deactivating a user refuses their login; contact message; maintenance", async () => {
    await createUser(app, { username: "grace", password: "admin-power-1", role: "admin", name: "Grace Hopper" });
    const target = await createUser(app, { username: "mallory", password: "mallory-pass-1", name: "Mallory" });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/admin`);
    assert.equal(new URL(page.url()).pathname, "/login", "anonymous: sent to the login page");
    await fill(page, { identifier: "grace", password: "admin-power-1" });
    await submit(page);
    assert.equal(new URL(page.url()).pathname, "/admin", "back where they wanted to go");

    await page.goto(`${app.url}/admin/users?q=mallory`);
    await page.click(`a[href="/admin/users/${target.id}"]`);
    await submit(page, 'form[action$="/deactivate"] button');
    assert.match(await flash(page), /mallory is deactivated/);

    const visitor = await browser.newContext();
    const other = await visitor.newPage();
    await other.goto(`${app.url}/login`);
    await fill(other, { identifier: "mallory", password: "mallory-pass-1" });
    await submit(other);
    assert.match(
      await other
        .locator(".fwb-flash.error")
        .allInnerTexts()
        .then((t) => t.join(" ")),
      /This account is deactivated/,
    );

    await other.goto(`${app.url}/contact`);
    await fill(other, {
      name: "Visitor",
      email: "visitor@example.test",
      subject: "Opening hours",
      message: "When do you open on Sundays?",
    });
    await captcha(other);
    await submit(other);
    assert.match(await flash(other), /your message is sent/);
    const mail = await app.nextMail();
    assert.equal(mail.parsed.subject, "Contact form: Opening hours");
    await page.goto(`${app.url}/admin/messages`);
    assert.match(await page.locator("table").innerText(), /Opening hours/);

    await page.goto(`${app.url}/admin/maintenance`);
    await submit(page, 'form[action="/admin/maintenance"] button');
    assert.match(await flash(page), /Maintenance is on/);
    const blocked = await other.goto(`${app.url}/`);
    assert.equal(blocked?.status(), 503);
    assert.equal(await blocked?.headerValue("retry-after"), "600");
    assert.match(await other.locator("h1").innerText(), /Down for maintenance/);
    const adminHome = await page.goto(`${app.url}/admin/users`);
    assert.equal(adminHome?.status(), 200, "the admin still works");
    await page.goto(`${app.url}/admin/maintenance`);
    await submit(page, 'form[action="/admin/maintenance"] button');
    assert.equal((await other.goto(`${app.url}/`))?.status(), 200);
    await visitor.close();
    await context.close();
  });

  test("screenshots: the login page, the admin user list and an error page, light and dark", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1100, height: 760 } });
      const page = await context.newPage();
      await page.goto(`${app.url}/login`);
      await page.screenshot({ path: `${SHOTS}login-${scheme}.png` });
      await fill(page, { identifier: "grace", password: "admin-power-1" });
      await submit(page);
      await page.goto(`${app.url}/admin/users`);
      assert.equal((await page.locator("table.fwb-table tbody tr").count()) >= 3, true);
      await page.screenshot({ path: `${SHOTS}admin-users-${scheme}.png` });
      const missing = await page.goto(`${app.url}/no/such/page`);
      assert.equal(missing?.status(), 404);
      await page.screenshot({ path: `${SHOTS}error-404-${scheme}.png` });
      const background = await page.evaluate("getComputedStyle(document.body).backgroundColor");
      assert.equal(
        background,
        scheme === "dark" ? "rgb(17, 21, 28)" : "rgb(246, 247, 249)",
        "the theme follows the color scheme",
      );
      const iconFont = await page.evaluate(`document.fonts.check('16px "bootstrap-icons"')`);
      assert.equal(iconFont, true, "the icon font is loaded from the app");
      await context.close();
    }
    for (const name of ["login", "admin-users", "error-404"])
      for (const scheme of ["light", "dark"]) assert.ok(existsSync(`${SHOTS}${name}-${scheme}.png`));
  });
});
