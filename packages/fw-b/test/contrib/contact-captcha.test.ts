// contrib.contact (stored, mailed to the recipients, listed in the admin area) and the captcha
// (an HMAC of the answer in the session, one try per picture, a pluggable verifier).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { CaptchaVerifier } from "../../src/contrib/index.js";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

describe("contrib.contact with the built-in captcha", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp();
  });
  after(() => app.close());

  test("a message is stored, mailed to the recipients with Reply-To, and listed (escaped) in the admin area", async () => {
    const browser = httpClient(app.url);
    const page = (await browser.page("/contact")).text;
    assert.match(page, /<span class="captcha-image" role="img" aria-label="captcha"><svg/);
    assert.doesNotMatch(page, new RegExp(app.captcha.last), "the answer is not in the page");
    const res = await browser.form("/contact", {
      _csrf_token: csrfFrom(page),
      captcha: app.captcha.last.toLowerCase(),
      name: "Ada",
      email: "ada@example.test",
      subject: "Oolong <b>stock</b>",
      message: "Do you have oolong?\n<script>alert(1)</script> ' OR 1=1 --",
    });
    assert.equal(res.status, 303);
    assert.match((await browser.page("/contact")).text, /Thank you: your message is sent\./);
    const mail = await app.nextMail();
    assert.deepEqual(mail.to, ["team@example.test"]);
    assert.equal(mail.parsed.subject, "Contact form: Oolong <b>stock</b>");
    assert.equal(mail.parsed.replyTo?.value[0]?.address, "ada@example.test");
    assert.match(mail.text, /Do you have oolong\?\n<script>alert\(1\)<\/script> ' OR 1=1 --/);
    const stored = await app.models.contactMessages.findBy({ email: "ada@example.test" });
    assert.equal(stored?.message, "Do you have oolong?\n<script>alert(1)</script> ' OR 1=1 --", "stored as written");

    await createUser(app, { username: "adm", password: "adm-password-1", role: "admin" });
    const admin = httpClient(app.url);
    await admin.form("/login", {
      _csrf_token: csrfFrom((await admin.page("/login")).text),
      identifier: "adm",
      password: "adm-password-1",
    });
    const list = await admin.page("/admin/messages");
    assert.match(list.text, /Oolong &lt;b&gt;stock&lt;\/b&gt;/);
    assert.match(list.text, /<span class="fwb-badge">new<\/span>/);
    const view = await admin.page(`/admin/messages/${stored!.id}`);
    assert.match(view.text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.doesNotMatch(view.text, /<script>alert/);
    assert.ok((await app.models.contactMessages.find(stored!.id))?.read_at, "marked read");
    assert.equal((await admin.page("/admin/messages/abc")).status, 404);
  });

  test("a wrong captcha re-renders the form with a message and the input; each picture allows one try", async () => {
    const browser = httpClient(app.url);
    const page = (await browser.page("/contact")).text;
    const answer = app.captcha.last;
    const fields = { name: "Bo", email: "bo@example.test", subject: "Hi", message: "Hello there, team!" };
    const wrong = await browser.form(
      "/contact",
      { _csrf_token: csrfFrom(page), captcha: "zzzzz", ...fields },
      { referer: `${app.url}/contact` },
    );
    assert.equal(wrong.status, 303);
    const again = (await browser.page("/contact")).text;
    assert.match(again, /The characters did not match; try the new picture\./);
    assert.match(again, /name="subject" type="text" value="Hi"/);
    const reused = await browser.form("/contact", { _csrf_token: csrfFrom(again), captcha: answer, ...fields });
    assert.equal(reused.status, 303);
    assert.match((await browser.page("/contact")).text, /did not match/, "the first picture's answer no longer works");
    assert.equal(await app.models.contactMessages.findBy({ email: "bo@example.test" }), undefined, "nothing stored");
    const none = httpClient(app.url);
    const noSession = await none.form("/contact", { captcha: answer, ...fields });
    assert.equal(noSession.status, 403, "no session, no CSRF token");
  });
});

describe("a hosted captcha through a pluggable verifier", () => {
  let app: ContribApp;
  const seen: string[] = [];
  const verifier: CaptchaVerifier = {
    name: "fake-hosted",
    challenge: () => '<div class="hosted-widget" data-sitekey="test"></div>',
    verify: (_ctx, body) => {
      seen.push(String(body["hosted-response"]));
      return body["hosted-response"] === "human";
    },
  };
  before(async () => {
    app = await startContribApp({
      contrib: { auth: true, contact: { recipients: ["team@example.test"] }, captcha: { verifier } },
    });
  });
  after(() => app.close());

  test("the verifier renders the widget and decides", async () => {
    const browser = httpClient(app.url);
    const page = (await browser.page("/contact")).text;
    assert.match(page, /<div class="hosted-widget" data-sitekey="test"><\/div>/);
    const fields = { name: "Cy", email: "cy@example.test", subject: "Hi", message: "Hello there, team!" };
    await browser.form("/contact", { _csrf_token: csrfFrom(page), "hosted-response": "robot", ...fields });
    assert.match((await browser.page("/contact")).text, /did not match/);
    const ok = await browser.form("/contact", {
      _csrf_token: csrfFrom((await browser.page("/contact")).text),
      "hosted-response": "human",
      ...fields,
    });
    assert.equal(ok.status, 303);
    assert.deepEqual(seen, ["robot", "human"]);
    assert.ok(await app.models.contactMessages.findBy({ email: "cy@example.test" }));
  });
});

describe("captcha test mode", () => {
  test("writes the answer into the page for browser tests, and is refused in production", async () => {
    const app = await startContribApp({ contrib: { auth: true, captcha: { testMode: true } } });
    try {
      const page = (await httpClient(app.url).page("/signup")).text;
      assert.match(page, /<div class="captcha" data-test-answer="[A-Za-z0-9]{5}">/);
    } finally {
      await app.close();
    }
    await assert.rejects(
      startContribApp({ contrib: { auth: true, captcha: { testMode: true } }, config: { env: "production" } }),
      { code: "E_CONTRIB_CONFIG", message: /refused in production/ },
    );
  });
});
