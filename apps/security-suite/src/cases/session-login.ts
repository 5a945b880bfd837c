/**
 * Sessions and login (with ASVS level 2, V2 and V3):
 * cookie flags in production, a new session at login with the old one dead, failed-login limits
 * that alternating username, email, case and spaces cannot dodge, a per-address limit, and equal
 * work for known and unknown accounts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { BEHIND_TLS } from "../behind-tls.js";
import type { SuiteUser, Target } from "../target.js";

/** The users an fw-b target is started with for these cases. */
export const LOGIN_USERS: readonly SuiteUser[] = Object.freeze([
  { username: "alice", email: "alice@example.test", password: "correct-horse-1" },
  { username: "bob", email: "bob@example.test", password: "correct-horse-2" },
]);

/** The known accounts of the login-timing case (two tries each, under the per-account limit of 5). */
export const LOGIN_TIMING_USERS: readonly SuiteUser[] = Object.freeze(
  Array.from({ length: 4 }, (_, i) => ({
    username: `timing${i}`,
    email: `timing${i}@example.test`,
    password: `timing-pass-${i}`,
  })),
);

/** Logs in through the login form; answers the POST's answer. */
async function login(_app: Target, browser: HttpClient, identifier: string, password: string) {
  const page = await browser.send("/login");
  assert.equal(page.status, 200, page.text.slice(0, 200));
  return browser.submit("/login", { _csrf_token: csrfFrom(page.text), identifier, password, next: "/" });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Registers the cookie checks (both frameworks): `page` is a path with a form, which gives an
 * anonymous visitor the signed CSRF cookie and no session (a session cookie, if any, is checked too).
 */
export function cookieCases(target: () => Target, page: string): void {
  test("session and CSRF cookie flags in production: HttpOnly, Secure, SameSite, Path=/", async () => {
    const app = target();
    const browser = httpClient(app.url, BEHIND_TLS);
    await browser.send(app.path(page));
    const lines = browser.setCookieLines.filter((cookie) => /^(session|__Host-csrf)=/.test(cookie));
    assert.ok(
      lines.some((cookie) => cookie.startsWith("__Host-csrf=")),
      `the CSRF cookie is set by ${page}: ${browser.setCookieLines.join(" | ")}`,
    );
    for (const line of lines) {
      assert.match(line, /;\s*httponly/i);
      assert.match(line, /;\s*secure/i);
      assert.match(line, /;\s*samesite=(lax|strict)/i);
      assert.match(line, /;\s*path=\//i);
    }
  });
}

/** Registers the login cases against an fw-b app with contrib auth started with {@link LOGIN_USERS}. */
export function loginCases(target: () => Target): void {
  test("session rotation at login: a new session cookie, and the pre-login session is not logged in", async () => {
    const app = target();
    const browser = httpClient(app.url, BEHIND_TLS);
    // An anonymous visitor's session (a language choice): the login page alone stores none.
    const page = await browser.send("/login");
    await browser.submit("/language", { language: "en", next: "/login", _csrf_token: csrfFrom(page.text) });
    const before = browser.cookies.get("session");
    assert.ok(before, "the language choice starts a session");
    const res = await login(app, browser, "bob", "correct-horse-2");
    assert.ok(res.status >= 300 && res.status < 400, `login redirects: ${res.status} ${res.text.slice(0, 200)}`);
    const after = browser.cookies.get("session");
    assert.ok(after && after !== before, "the session cookie changes at login");
    assert.equal((await browser.send("/account")).status, 200, "the new session is logged in");
    const stale = await httpClient(app.url, BEHIND_TLS).send("/account", { headers: { cookie: `session=${before}` } });
    assert.notEqual(stale.status, 200, "the session from before login is not logged in");
  });

  test("logout ends the session on the server: the cookie from before logout is no longer logged in", async () => {
    const app = target();
    const browser = httpClient(app.url, BEHIND_TLS);
    const res = await login(app, browser, "bob", "correct-horse-2");
    assert.ok(res.status >= 300 && res.status < 400, `login redirects: ${res.status}`);
    const loggedIn = browser.cookies.get("session")!;
    const logoutPage = await browser.send("/logout");
    assert.equal(logoutPage.status, 200);
    const out = await browser.submit("/logout", { _csrf_token: csrfFrom(logoutPage.text) });
    assert.ok(out.status >= 300 && out.status < 400, `logout redirects: ${out.status}`);
    const replay = await httpClient(app.url, BEHIND_TLS).send("/account", {
      headers: { cookie: `session=${loggedIn}` },
    });
    assert.notEqual(replay.status, 200, "a copied session cookie dies with the logout");
  });

  test("login throttle: alternating username, email, case and spaces shares one per-account limit", async () => {
    const app = target();
    const spellings = ["alice", "alice@example.test", "ALICE", " alice ", "Alice@Example.Test", " ALICE@example.test "];
    const statuses: number[] = [];
    for (const identifier of spellings)
      statuses.push((await login(app, httpClient(app.url, BEHIND_TLS), identifier, "wrong-password")).status);
    assert.ok(
      statuses.slice(0, 5).every((status) => status !== 429),
      `the first five failures are answered: ${statuses}`,
    );
    assert.equal(statuses[5], 429, `the sixth failure, in any spelling, is over the limit of 5: ${statuses}`);
    const right = await login(app, httpClient(app.url, BEHIND_TLS), "alice@example.test", "correct-horse-1");
    assert.equal(right.status, 429, "while over the limit even the right password is refused");
  });

  test("per-address limit: many unknown names from one address end in 429", async () => {
    const app = target();
    let limited = false;
    for (let i = 0; i < 40 && !limited; i++)
      limited = (await login(app, httpClient(app.url, BEHIND_TLS), `spray-${i}`, "x")).status === 429;
    assert.ok(limited, "password spraying from one address is limited (loginLimitAddress 36)");
  });
}

/**
 * Registers the login-timing case against an fw-b app with contrib auth started with
 * {@link LOGIN_TIMING_USERS}.
 */
export function loginTimingCases(target: () => Target): void {
  test("login timing: a known account with a wrong password and an unknown account do the same work", async () => {
    const app = target();
    const timed = async (identifier: string) => {
      const browser = httpClient(app.url, BEHIND_TLS);
      const page = await browser.send("/login");
      const fields = { _csrf_token: csrfFrom(page.text), identifier, password: "not-the-password", next: "/" };
      const start = process.hrtime.bigint();
      const res = await browser.submit("/login", fields);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      assert.notEqual(res.status, 429, "the timing samples stay under the limits");
      return ms;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, two tries per known account (under its limit of 5), a fresh unknown name each time.
    for (let i = 0; i < 8; i++) {
      known.push(await timed(LOGIN_TIMING_USERS[i % LOGIN_TIMING_USERS.length]!.username));
      unknown.push(await timed(`nobody-${i}-${Date.now()}`));
    }
    const [k, u] = [median(known), median(unknown)];
    // A statistical check of equal work, with a generous bound: the bug was ~4x (bcrypt cost 10 vs 12).
    assert.ok(Math.max(k, u) / Math.min(k, u) < 1.6, `median known ${k.toFixed(1)} ms vs unknown ${u.toFixed(1)} ms`);
  });
}
