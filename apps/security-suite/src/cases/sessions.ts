/**
 * Sessions against the production fw-b target with Redis sessions: anonymous page views store
 * nothing in Redis (the CSRF token of an anonymous form comes from a signed cookie), the check of
 * that token stays fail-closed, a session an anonymous visitor does write lives a short time, and
 * a password change ends every other session of the account (a stolen one included) while the
 * session that changed it goes on, and a mailed reset ends them all.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { serverUrls } from "@fwkit/test-servers";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { BEHIND_TLS } from "../behind-tls.js";
import type { SuiteUser, Target } from "../target.js";

/** The users these cases need of their own (carol's and dave's passwords change; erin logs in across a form). */
export const SESSION_USERS: readonly SuiteUser[] = Object.freeze([
  { username: "carol", email: "carol@example.test", password: "correct-horse-3" },
  { username: "dave", email: "dave@example.test", password: "correct-horse-4" },
  { username: "erin", email: "erin@example.test", password: "correct-horse-7" },
]);

/** A session key of the target's prefix (the failed-login and rate-limit counters share the prefix, under names of their own). */
const SESSION_KEY = /^[A-Za-z0-9_-]{43}$/;

/** One Redis command through redis-cli (installed with the Redis server the tests use). */
function redis(...args: string[]): string {
  const result = spawnSync("redis-cli", ["-u", serverUrls.redis, ...args], { encoding: "utf8" });
  if (result.status !== 0) assert.fail(`redis-cli ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout.trim();
}

function sessionKeys(prefix: string): string[] {
  return redis("--scan", "--pattern", `${prefix}*`)
    .split("\n")
    .filter((key) => key.startsWith(prefix) && SESSION_KEY.test(key.slice(prefix.length)));
}

async function logIn(_app: Target, browser: HttpClient, identifier: string, password: string) {
  const page = await browser.send("/login");
  const res = await browser.submit("/login", { _csrf_token: csrfFrom(page.text), identifier, password, next: "/" });
  assert.ok(
    res.status >= 300 && res.status < 400 && res.headers.get("location") !== "/login",
    `login of ${identifier}: ${res.status} ${res.headers.get("location")}`,
  );
}

/** Registers the cases against an fw-b target started with Redis sessions and {@link SESSION_USERS}. */
export function sessionCases(target: () => Target): void {
  test("200 anonymous GETs of pages with forms store no session in Redis, and set only the signed CSRF cookie", async () => {
    const app = target();
    const prefix = app.sessionPrefix;
    assert.ok(prefix, "the target runs with Redis sessions");
    {
      const before = sessionKeys(prefix).length;
      const pages = ["/login", "/lost-password", "/signup", "/contact"];
      let withForm = 0;
      for (let i = 0; i < 200; i++) {
        const visitor = httpClient(app.url, BEHIND_TLS);
        const page = await visitor.send(pages[i % pages.length]!);
        if (page.status !== 200) continue;
        if (page.text.includes('name="_csrf_token"')) withForm++;
        assert.equal(visitor.cookies.has("session"), false, `no session cookie for ${pages[i % pages.length]}`);
        if (i < pages.length) {
          const line = visitor.setCookieLines.find((cookie) => cookie.startsWith("__Host-csrf="));
          assert.ok(line, `the CSRF cookie: ${visitor.setCookieLines.join(" | ")}`);
          for (const flag of [/;\s*httponly/i, /;\s*secure/i, /;\s*samesite=lax/i, /;\s*path=\/(;|$)/i])
            assert.match(line, flag);
        }
      }
      assert.ok(withForm >= 100, `most pages carried a form with a token (${withForm})`);
      const after = sessionKeys(prefix).length;
      assert.equal(after - before, 0, `Redis session keys before ${before}, after ${after}`);
    }
  });

  test("an anonymous form POST with the cookie's token passes; without it, with a wrong one or without the cookie it is 403", async () => {
    const app = target();
    const visitor = httpClient(app.url, BEHIND_TLS);
    const page = await visitor.send("/login");
    const token = csrfFrom(page.text);
    const fields = { language: "fr", next: "/login" };
    assert.equal((await visitor.submit("/language", fields)).status, 403, "no token");
    assert.equal(
      (await visitor.submit("/language", { ...fields, _csrf_token: `${token.slice(0, -4)}AAAA` })).status,
      403,
      "a wrong token",
    );
    const stranger = httpClient(app.url, BEHIND_TLS);
    assert.equal(
      (await stranger.submit("/language", { ...fields, _csrf_token: token })).status,
      403,
      "the token without its cookie",
    );
    const other = httpClient(app.url, BEHIND_TLS);
    const otherToken = csrfFrom((await other.send("/login")).text);
    assert.equal(
      (await visitor.submit("/language", { ...fields, _csrf_token: otherToken })).status,
      403,
      "another visitor's token",
    );
    const ok = await visitor.submit("/language", { ...fields, _csrf_token: token });
    assert.ok(ok.status >= 300 && ok.status < 400, `the right token passes: ${ok.status}`);
  });

  test("a session an anonymous visitor writes (a language choice) lives at most two hours in Redis", async () => {
    const app = target();
    const visitor = httpClient(app.url, BEHIND_TLS);
    const token = csrfFrom((await visitor.send("/login")).text);
    const res = await visitor.submit("/language", { language: "de", next: "/login", _csrf_token: token });
    assert.ok(res.status >= 300 && res.status < 400, `${res.status}`);
    const cookie = visitor.cookies.get("session");
    assert.ok(cookie, "the choice is kept in a session");
    const ttl = Number(redis("TTL", `${app.sessionPrefix}${cookie.slice(0, cookie.lastIndexOf("."))}`));
    assert.ok(ttl > 0 && ttl <= 2 * 3600 + 10, `anonymous session TTL ${ttl} s`);
  });

  test("a form rendered before login is accepted after login (CSRF across login)", async () => {
    const app = target();
    const browser = httpClient(app.url, BEHIND_TLS);
    const early = csrfFrom((await browser.send("/login")).text);
    const erin = SESSION_USERS[2]!;
    await logIn(app, browser, erin.username, erin.password);
    const res = await browser.submit("/language", { language: "en", next: "/account", _csrf_token: early });
    assert.ok(res.status >= 300 && res.status < 400, `the pre-login token still works: ${res.status}`);
  });

  test("a password change ends every other session of the account, a stolen copy included; the changer stays logged in", async () => {
    const app = target();
    const [carol] = SESSION_USERS;
    const victim = httpClient(app.url, BEHIND_TLS);
    await logIn(app, victim, carol!.username, carol!.password);
    const laptop = httpClient(app.url, BEHIND_TLS);
    await logIn(app, laptop, carol!.username, carol!.password);
    const cookie = victim.setCookieLines.filter((line) => line.startsWith("session=")).at(-1);
    assert.ok(cookie, "login sets a session cookie");
    for (const flag of [/;\s*httponly/i, /;\s*secure/i, /;\s*samesite=lax/i, /;\s*path=\//i])
      assert.match(cookie, flag);
    const stolen = victim.cookies.get("session")!;
    assert.equal(
      (await httpClient(app.url, BEHIND_TLS).send("/account", { headers: { cookie: `session=${stolen}` } })).status,
      200,
      "the stolen cookie works before",
    );
    const page = await victim.send("/account/password");
    assert.equal(page.status, 200);
    const newPassword = "new-correct-horse-33";
    const res = await victim.submit("/account/password", {
      _csrf_token: csrfFrom(page.text),
      current_password: carol!.password,
      password: newPassword,
      password_confirm: newPassword,
    });
    assert.equal(res.status, 303, `the change is accepted: ${res.status} ${res.text.slice(0, 300)}`);
    assert.equal((await victim.send("/account")).status, 200, "the session that changed the password goes on");
    assert.notEqual(
      (await httpClient(app.url, BEHIND_TLS).send("/account", { headers: { cookie: `session=${stolen}` } })).status,
      200,
      "the stolen cookie no longer reaches /account",
    );
    assert.notEqual((await laptop.send("/account")).status, 200, "the account's other session is logged out");
  });

  test("a mailed password reset ends every session of the account, a stolen copy included", async () => {
    const app = target();
    assert.ok(app.mail, "the target mails to a test SMTP server");
    const dave = SESSION_USERS[1]!;
    const victim = httpClient(app.url, BEHIND_TLS);
    await logIn(app, victim, dave.username, dave.password);
    const stolen = victim.cookies.get("session")!;
    const visitor = httpClient(app.url, BEHIND_TLS);
    const lost = await visitor.send("/lost-password");
    const asked = await visitor.submit("/lost-password", { _csrf_token: csrfFrom(lost.text), email: dave.email });
    assert.equal(asked.status, 303, `${asked.status} ${asked.text.slice(0, 300)}`);
    let path: string | undefined;
    while (!path) {
      const mail = await app.mail.waitForMail();
      if (mail.to.includes(dave.email))
        path = /https?:\/\/[^/\s]+(\/reset-password\/\S+)/.exec(mail.parsed.text ?? "")?.[1];
    }
    const page = await visitor.send(path);
    assert.equal(page.status, 200, page.text.slice(0, 300));
    const newPassword = "new-correct-horse-44";
    const reset = await visitor.submit(path, {
      _csrf_token: csrfFrom(page.text),
      password: newPassword,
      password_confirm: newPassword,
    });
    assert.equal(reset.status, 303, `the reset is accepted: ${reset.status} ${reset.text.slice(0, 300)}`);
    assert.notEqual(
      (await httpClient(app.url, BEHIND_TLS).send("/account", { headers: { cookie: `session=${stolen}` } })).status,
      200,
      "the stolen cookie no longer reaches /account",
    );
    assert.notEqual((await victim.send("/account")).status, 200, "the victim's own session ended too");
  });
}
