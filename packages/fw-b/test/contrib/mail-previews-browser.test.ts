// The development mail previews (/_mail) of an fw-b app in Debian's Chromium (playwright-core):
// the app's mails and contrib's are listed with their preview data, rendered HTML beside text in
// every language of the app, and the mails the log: catcher caught are listed with clickable
// links. Outside development the path is an ordinary 404.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser } from "playwright-core";
import { runtimeOf } from "@fwkit/koa-host/plugin";
import type { Services } from "@fwkit/services";
import { startContribApp, type ContribApp } from "./fixture.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

const WELCOME = {
  "../package.json": JSON.stringify({ type: "module" }),
  "mail/welcome.subject.txt": "Welcome, #{name}",
  "mail/welcome.txt": "Hello #{name}, start here: #{url}\n",
  "mail/welcome.pug": "p.greeting Hello #{name}\np\n  a(href=url) Start here\n",
  "mail/welcome.preview.ts":
    'export function preview(language: string) {\n  return { name: language === "fr" ? "Amélie" : "Ada", url: "http://127.0.0.1:5000/start" };\n}\n',
};

function servicesOf(app: ContribApp): Services {
  const plugin = runtimeOf(app.host.koa.context).plugins.find((each) => each.name === "services") as unknown as {
    services: Services;
  };
  return plugin.services;
}

describe("mail previews in a real browser", () => {
  let app: ContribApp;
  let browser: Browser;
  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
    );
    app = await startContribApp({ templates: WELCOME, config: { env: "development", mailUrl: "log:" } });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-background-networking"],
    });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test("the index lists the app's mails and contrib's, with their preview data", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/_mail`);
    const names = await page.locator("table").first().locator("tbody tr td:first-child a").allInnerTexts();
    assert.ok(names.includes("welcome"), names.join(", "));
    for (const name of ["contrib/auth/verify", "contrib/auth/reset", "contrib/contact/message"])
      assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
    assert.match(await page.locator("tr", { hasText: "welcome" }).first().innerText(), /welcome\.preview\.ts/);
    await page.close();
  });

  test("a mail renders in each language, HTML and text side by side", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/_mail`);
    await Promise.all([
      page.waitForLoadState("load"),
      page.getByRole("link", { name: "welcome", exact: true }).click(),
    ]);
    const languages = await page
      .locator("section.preview")
      .evaluateAll((sections) => sections.map((section) => section.getAttribute("data-language")));
    assert.deepEqual(languages, ["en", "fr", "es", "de"]);
    const french = page.locator('section.preview[data-language="fr"]');
    assert.match(await french.locator("h2").innerText(), /Welcome, Amélie/);
    assert.match(
      await french.locator("pre").innerText(),
      /Hello Amélie, start here: http:\/\/127\.0\.0\.1:5000\/start/,
    );
    const frame = french.locator("iframe").contentFrame();
    assert.equal((await frame.locator("p.greeting").innerText()).trim(), "Hello Amélie");
    const box = await french.locator("iframe").boundingBox();
    const text = await french.locator("pre").boundingBox();
    assert.ok(
      box && text && Math.abs(box.y - text.y) < 60 && text.x > box.x + box.width / 2,
      "the text part is beside the HTML part",
    );

    await page.goto(`${app.url}/_mail/preview/contrib/auth/verify`);
    const en = await page.locator('section.preview[data-language="en"] pre').innerText();
    const de = await page.locator('section.preview[data-language="de"] pre').innerText();
    assert.match(en, /Ada Lovelace/);
    assert.match(en, /http:\/\/127\.0\.0\.1:5000\/verify-email\/preview-token/);
    assert.notEqual(de.split("\n")[0], en.split("\n")[0], "contrib's mail is translated in each language");
    assert.equal(await page.locator(".error").count(), 0, await page.locator("body").innerText());
    await page.close();
  });

  test("caught mails are listed newest first, with their links clickable", async () => {
    await servicesOf(app).mailer.sendMail({
      to: "grace@example.test",
      template: "welcome",
      context: { name: "Grace", url: `${app.url}/login` },
    });
    const page = await browser.newPage();
    await page.goto(`${app.url}/_mail`);
    const row = page.locator("tr", { hasText: "grace@example.test" });
    assert.match(await row.innerText(), /Welcome, Grace/);
    await Promise.all([page.waitForURL(`${app.url}/login`), row.locator(`a[href="${app.url}/login"]`).click()]);
    assert.equal(new URL(page.url()).pathname, "/login");
    await page.goto(`${app.url}/_mail`);
    await Promise.all([page.waitForLoadState("load"), page.getByRole("link", { name: "Welcome, Grace" }).click()]);
    assert.match(await page.locator("pre").innerText(), /Hello Grace/);
    assert.equal((await page.locator("iframe").contentFrame().locator("p.greeting").innerText()).trim(), "Hello Grace");
    await page.close();
  });
});

describe("mail previews outside development", () => {
  for (const env of ["test", "production"]) {
    test(`/_mail is a 404 in the ${env} environment`, async () => {
      const production =
        env === "production" ? { baseUrl: "https://tea.example.test", trustProxy: false } : { mailUrl: "log:" };
      const app = await startContribApp({
        templates: WELCOME,
        contrib: { auth: true },
        config: { env, ...production },
      });
      try {
        assert.equal((await fetch(`${app.url}/_mail`)).status, 404);
        assert.equal((await fetch(`${app.url}/_mail/preview/welcome`)).status, 404);
      } finally {
        await app.close();
      }
    });
  }
});
