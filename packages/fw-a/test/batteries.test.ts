// The batteries as an fw-a app uses them: CSRF, sessions and login, validation, response cache, mail.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { createApp, signal, SIGNALS, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";
import { HttpClient } from "@fwkit/test-servers";

const root = fileURLToPath(new URL("./secure-app", import.meta.url));
const users = new Map([[1, { id: 1, name: "Ann" }]]);

describe("fw-a with its batteries", () => {
  let app: Host;
  let url = "";
  let smtp: SmtpServer;
  before(async () => {
    smtp = await startSmtp();
    app = await createApp({
      root,
      auth: { loadUser: (id) => users.get(Number(id)), userId: (user) => (user as { id: number }).id },
      config: {
        env: "test",
        logRequests: false,
        dbUrl: "sqlite::memory:",
        mailUrl: smtp.url,
        mailFrom: "app@example.test",
      },
    });
    url = (await listenForTest(app)).url;
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test("CSRF: a form POST without the token is 403, with the page's token it passes", async () => {
    const browser = new HttpClient(url);
    const refused = await browser.form("/save/", { email: "ann@example.com", name: "Ann" });
    assert.equal(refused.status, 403);
    const token = await browser.csrfToken("/form/");
    const ok = await browser.form("/save/", { email: "ann@example.com", name: "Ann", _csrf_token: token });
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "saved Ann");
    const tampered = await browser.form("/save/", {
      email: "ann@example.com",
      name: "Ann",
      _csrf_token: `${token.slice(0, -2)}xx`,
    });
    assert.equal(tampered.status, 403);
  });

  test("CSRF: JSON with the X-CSRF-Token header works; an exempt view needs no token", async () => {
    const browser = new HttpClient(url);
    const token = await browser.csrfToken("/form/");
    const res = await browser.fetch("/api/create/", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": token },
      body: JSON.stringify({ email: "ann@example.com", name: "Bo" }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true, data: { email: "ann@example.com", name: "Bo" } });
    assert.equal((await new HttpClient(url).form("/hook/", {})).status, 200);
  });

  test("validation: 422 with field messages on a JSON view", async () => {
    const browser = new HttpClient(url);
    const token = await browser.csrfToken("/form/");
    const res = await browser.fetch("/api/create/", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": token },
      body: JSON.stringify({ email: "nope", name: "" }),
    });
    assert.equal(res.status, 422);
    const body = (await res.json()) as { error: { status: number; fields: Record<string, string[]> } };
    assert.equal(body.error.status, 422);
    assert.ok(body.error.fields["email"]?.length, "email has a message");
    assert.ok(body.error.fields["name"]?.length, "name has a message");
  });

  test("validation: an HTML form redirects back and re-renders with messages and old input", async () => {
    const browser = new HttpClient(url);
    const token = await browser.csrfToken("/form/");
    const res = await browser.form(
      "/save/",
      { email: "not-an-email", name: "<script>x</script>", _csrf_token: token },
      { referer: `${url}/form/` },
    );
    assert.equal(res.status, 303);
    assert.equal(new URL(res.headers.get("location")!, url).pathname, "/form/");
    const page = await (await browser.fetch("/form/")).text();
    assert.match(page, /class="error"/);
    assert.match(page, /value="not-an-email"/, "old input is shown");
    assert.doesNotMatch(page, /<script>x<\/script>/, "old input is escaped");
    const again = await (await browser.fetch("/form/")).text();
    assert.doesNotMatch(again, /class="error"/, "flash messages are shown once");
  });

  test("login: login-required HTML redirects with next, JSON answers 401, a session sees the user", async () => {
    const browser = new HttpClient(url);
    const anonymous = await browser.fetch("/secret/");
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.headers.get("location")!, /\/login\?next=%2Fsecret%2F/);
    assert.equal((await browser.fetch("/api/me/")).status, 401);
    const token = await browser.csrfToken("/form/");
    assert.equal((await browser.form("/login/", { _csrf_token: token })).status, 200);
    assert.equal(await (await browser.fetch("/secret/")).text(), "hello Ann");
    assert.deepEqual(await (await browser.fetch("/api/me/")).json(), { user: { id: 1, name: "Ann" } });
    const fresh = await browser.csrfToken("/form/");
    assert.equal((await browser.form("/logout/", { _csrf_token: fresh })).status, 200);
    assert.equal((await browser.fetch("/secret/")).status, 302);
    assert.equal(
      (await browser.form("/save/", { email: "ann@example.com", name: "Ann", _csrf_token: fresh })).status,
      403,
      "a token from before logout is refused",
    );
  });

  test("login and logout send the user.logged_in and user.logged_out signals", async () => {
    const seen: string[] = [];
    const off = [
      signal(SIGNALS.userLoggedIn).connect(({ userId }) => void seen.push(`in ${userId}`)),
      signal(SIGNALS.userLoggedOut).connect(({ userId }) => void seen.push(`out ${userId}`)),
    ];
    try {
      const browser = new HttpClient(url);
      const token = await browser.csrfToken("/form/");
      await browser.form("/login/", { _csrf_token: token });
      await browser.form("/logout/", { _csrf_token: await browser.csrfToken("/form/") });
      assert.deepEqual(seen, ["in 1", "out 1"]);
    } finally {
      for (const disconnect of off) disconnect();
    }
  });

  test("JWT: a token issued with the app's key opens a bearerAuth view; others get 401", async () => {
    const token = await (await fetch(`${url}/token/`)).text();
    const ok = await fetch(`${url}/whoami/`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(await ok.text(), "claims for ann");
    assert.equal((await fetch(`${url}/whoami/`)).status, 401);
    const tampered = `${token.slice(0, -4)}AAAA`;
    assert.equal((await fetch(`${url}/whoami/`, { headers: { authorization: `Bearer ${tampered}` } })).status, 401);
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from('{"sub":"ann"}').toString("base64url")}.`;
    assert.equal((await fetch(`${url}/whoami/`, { headers: { authorization: `Bearer ${none}` } })).status, 401);
  });

  test("bad input: a forged session cookie is ignored, never a 500", async () => {
    for (const cookie of ["session=garbage", `session=${"x".repeat(5000)}`, "session=%ZZ"]) {
      const res = await fetch(`${url}/form/`, { headers: { cookie } });
      assert.equal(res.status, 200, cookie.slice(0, 30));
    }
  });

  test("@response.cache(seconds): a cached GET is not re-executed within its TTL", async () => {
    const first = await (await fetch(`${url}/counted/`)).text();
    const second = await (await fetch(`${url}/counted/`)).text();
    assert.equal(second, first);
  });

  test("mail: Nunjucks mail templates reach a real SMTP server", async () => {
    const res = await fetch(`${url}/mail/ann%40example.test/`);
    assert.equal(res.status, 200, await res.clone().text());
    const mail = await smtp.waitForMail();
    assert.deepEqual(mail.to, ["ann@example.test"]);
    assert.equal(mail.parsed.subject, "Welcome, Ann");
    assert.match(mail.parsed.text ?? "", /Hello Ann, plain text\./);
    assert.match(String(mail.parsed.html), /<b>Ann<\/b>/);
  });
});
