// Validation answers (422 JSON / redirect back with messages), response caching and Pug mails.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { counter, startBatteryApp, type BatteryApp } from "./fixture.js";

describe("fw-b batteries: validation, cache, mail", () => {
  let app: BatteryApp;
  let smtp: SmtpServer;
  before(async () => {
    smtp = await startSmtp();
    app = await startBatteryApp({ mailUrl: smtp.url, mailFrom: "Shop <shop@example.test>" });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test("the same zod schema: 422 with per-field messages on a @renderJson view", async () => {
    const browser = httpClient(app.url);
    const token = csrfFrom((await browser.page("/forms")).text);
    const res = await browser.fetch("/api/signup", {
      method: "POST",
      body: JSON.stringify({ name: "x", age: "old" }),
      headers: { "content-type": "application/json", "x-csrf-token": token },
    });
    assert.equal(res.status, 422);
    const body = (await res.json()) as { error: { status: number; fields: Record<string, string[]> } };
    assert.equal(body.error.status, 422);
    assert.deepEqual(body.error.fields["name"], ["Name: at least 2 characters"]);
    assert.equal(body.error.fields["age"]?.length, 1);
    const ok = await browser.fetch("/api/signup", {
      method: "POST",
      body: JSON.stringify({ name: "Ada", age: "36" }),
      headers: { "content-type": "application/json", "x-csrf-token": token },
    });
    assert.deepEqual(await ok.json(), { created: { name: "Ada", age: 36 } });
  });

  test("an HTML form: redirected back (303) with the messages and the old input re-rendered", async () => {
    const browser = httpClient(app.url);
    const token = csrfFrom((await browser.page("/signup")).text);
    const res = await browser.form(
      "/signup",
      { _csrf_token: token, name: "<", age: "-3" },
      { referer: `${app.url}/signup` },
    );
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/signup");
    const page = await browser.page("/signup");
    assert.match(page.text, /<span class="error name">Name: at least 2 characters<\/span>/);
    assert.match(page.text, /<span class="error age">Age: 1 or more<\/span>/);
    assert.match(page.text, /<input name="name" value="&lt;">/, "old input, escaped");
    assert.match(page.text, /<input name="age" value="-3">/);
    assert.match(page.text, /class="flash error">Validation failed for name, age\.<\/p>/);
    const again = await browser.page("/signup");
    assert.doesNotMatch(again.text, /class="error/, "messages show once");
    const ok = await browser.form("/signup", { _csrf_token: csrfFrom(again.text), name: "Ada", age: "36" });
    assert.equal(await ok.text(), "welcome Ada, 36");
  });

  test("cache(seconds): a cached GET is not executed again within its TTL; an uncached one is", async () => {
    const before = counter.calls;
    const first = await (await fetch(`${app.url}/counter`)).text();
    const second = await (await fetch(`${app.url}/counter`)).text();
    assert.equal(first, `call ${before + 1}`);
    assert.equal(second, first, "served from the cache");
    assert.equal(counter.calls, before + 1);
    await fetch(`${app.url}/counter/fresh`);
    await fetch(`${app.url}/counter/fresh`);
    assert.equal(counter.calls, before + 3);
  });

  test("a mail rendered by the Pug renderer (subject.txt, .txt, .pug) reaches the SMTP server", async () => {
    const browser = httpClient(app.url);
    const token = csrfFrom((await browser.page("/forms")).text);
    const res = await browser.form("/mailer/send", { _csrf_token: token, to: "ada@example.test", name: "Ada & <Bob>" });
    assert.equal(await res.text(), "sent");
    const mail = await smtp.waitForMail();
    assert.deepEqual(mail.to, ["ada@example.test"]);
    assert.equal(mail.from, "shop@example.test");
    assert.equal(mail.parsed.subject, "Welcome, Ada & <Bob>!");
    assert.equal(mail.parsed.text?.trim(), "Hello Ada & <Bob>,\n\nyour link: http://127.0.0.1/x?a=1&b=2");
    assert.equal(
      mail.parsed.html,
      '<p>Hello Ada &amp; &lt;Bob&gt;</p><a href="http://127.0.0.1/x?a=1&amp;b=2">Start</a>',
    );
  });
});
