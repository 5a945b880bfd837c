// fw-a's mails at /_mail in development: its Nunjucks templates rendered with the preview data
// beside them in each language of i18n.languages, with `t` (the caught mails: fw-b's browser test).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createApp, type Host } from "fw-a";

describe("fw-a mail previews", () => {
  const root = mkdtempSync(join(tmpdir(), "fw-a-mail-previews-"));
  let host: Host;
  let base = "";
  before(async () => {
    const mail = join(root, "templates", "mail");
    mkdirSync(mail, { recursive: true });
    mkdirSync(join(root, "locales"));
    writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(root, "locales", "en.json"), JSON.stringify({ "mail.hello": "Hello {{name}}" }));
    writeFileSync(join(root, "locales", "fr.json"), JSON.stringify({ "mail.hello": "Bonjour {{name}}" }));
    writeFileSync(join(mail, "welcome.subject.txt"), "{{ t('mail.hello', { name: name }) }}\n");
    writeFileSync(join(mail, "welcome.txt"), "{{ t('mail.hello', { name: name }) }}: {{ url }}\n");
    writeFileSync(
      join(mail, "welcome.html"),
      '<p class="greeting">{{ t("mail.hello", { name: name }) }}</p><a href="{{ url }}">Start</a>\n',
    );
    writeFileSync(
      join(mail, "welcome.preview.ts"),
      'export const preview = { name: "<Ada>", url: "http://127.0.0.1:5000/start" };\n',
    );
    host = await createApp({
      root,
      modules: [],
      config: {
        env: "development",
        logRequests: false,
        dbUrl: "sqlite::memory:",
        mailUrl: "log:",
        mailFrom: "app@example.test",
        i18n: { languages: ["en", "fr"] },
      },
    });
    const server = await host.listen(0, "127.0.0.1");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await host?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("the index lists the mail and its preview data", async () => {
    const page = await (await fetch(`${base}/_mail`)).text();
    assert.match(page, /href="\/_mail\/preview\/welcome">welcome</);
    assert.match(page, /welcome\.preview\.ts/);
  });

  test("a mail renders in each language, the HTML part escaped in its frame, the text part beside it", async () => {
    const res = await fetch(`${base}/_mail/preview/welcome`);
    assert.equal(res.status, 200);
    const page = await res.text();
    const french = page.slice(page.indexOf('data-language="fr"'));
    assert.match(page, /<h2 lang="en">en: Hello &#60;Ada&#62;<\/h2>/, "the subject, a text, escaped once");
    assert.match(french, /^data-language="fr"><h2 lang="fr">fr: Bonjour &#60;Ada&#62;<\/h2>/);
    assert.match(
      french,
      /<pre>Bonjour &#60;Ada&#62;: http:\/\/127\.0\.0\.1:5000\/start/,
      "the text part beside the HTML part",
    );
    // The HTML part is escaped by the template, then once more as the frame's srcdoc attribute.
    assert.match(french, /srcdoc="[^"]*&#60;p class=&#34;greeting&#34;&#62;Bonjour &#38;lt;Ada&#38;gt;/);
    assert.equal((await fetch(`${base}/_mail/preview/nothing`)).status, 404);
  });
});
