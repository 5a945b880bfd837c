// contrib's mails speak the language of the request that sent them: the signup confirmation in
// French and Spanish, the password reset in German (subject and body, through real SMTP), and
// English without an Accept-Language header.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { createUser, linkIn, startContribApp, type ContribApp } from "./fixture.js";

describe("contrib mails in the request's language", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp();
  });
  after(() => app.close());

  /** Posts a contrib form the way a browser in `language` does (the page, then the form). */
  async function submit(page: string, fields: Record<string, string>, language?: string): Promise<void> {
    const headers: Record<string, string> = language ? { "accept-language": language } : {};
    const browser = httpClient(app.url);
    const html = await (await browser.fetch(page, { headers })).text();
    const extra: Record<string, string> = /name="captcha"/.test(html) ? { captcha: app.captcha.last } : {};
    const res = await browser.form(
      page,
      { _csrf_token: csrfFrom(html), ...extra, ...fields },
      { referer: `${app.url}${page}`, ...headers },
    );
    assert.equal(res.status, 303, `${page} in ${language ?? "English"}`);
  }

  const signup = (name: string, language?: string) =>
    submit(
      "/signup",
      {
        username: name,
        email: `${name}@example.test`,
        name,
        password: "mail-lang-pass-1",
        password_confirm: "mail-lang-pass-1",
      },
      language,
    );

  test("the signup confirmation in French and Spanish; English without Accept-Language", async () => {
    await signup("amelie", "fr-FR,fr;q=0.9");
    const french = await app.nextMail();
    assert.equal(french.parsed.subject, "Confirmez votre adresse e-mail pour Tea Shop");
    assert.match(french.text, /^Bonjour amelie,/);
    assert.match(
      french.text,
      /Merci de confirmer que amelie@example\.test est bien votre adresse en suivant ce lien :/,
    );
    assert.ok(linkIn(french.text, "/verify-email/"));

    await signup("lucia", "es");
    const spanish = await app.nextMail();
    assert.equal(spanish.parsed.subject, "Confirma tu dirección de correo en Tea Shop");
    assert.match(spanish.text, /^Hola, lucia:/);

    await signup("grace");
    const english = await app.nextMail();
    assert.equal(english.parsed.subject, "Confirm your email address for Tea Shop");
  });

  test("the password reset mail in German", async () => {
    await createUser(app, { username: "jonas", email: "jonas@example.test", password: "jonas-password-1" });
    await submit("/lost-password", { email: "jonas@example.test" }, "de");
    const mail = await app.nextMail();
    assert.equal(mail.parsed.subject, "Setzen Sie Ihr Passwort für Tea Shop zurück");
    assert.match(mail.text, /^Hallo jonas,/);
    assert.match(mail.text, /Wählen Sie hier ein neues:/);
    assert.ok(linkIn(mail.text, "/reset-password/"));
  });
});
