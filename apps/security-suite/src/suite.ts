/**
 * The security suite of one framework: scaffolds an app with the framework's init command, starts
 * it in production mode and runs every attack case against it (fw-b with contrib auth on, so the
 * login cases run there, with Redis sessions as the attacked deployment had; fw-a has no login pages
 * of its own and keeps the default signed-cookie sessions).
 */
import assert from "node:assert/strict";
import { after, before, describe } from "node:test";
import { accountTimingCases, TIMING_USERS } from "./cases/account-timing.js";
import { csrfCorsCases } from "./cases/csrf-cors.js";
import { devToolCases } from "./cases/dev-tools.js";
import { errorCases } from "./cases/errors.js";
import { headerCases } from "./cases/headers.js";
import { proxyCases } from "./cases/proxy.js";
import { LIMIT_USERS, limitCases } from "./cases/limits.js";
import { mailLinkCases } from "./cases/mail-links.js";
import { redirectCases } from "./cases/redirects.js";
import { refusedInputCases } from "./cases/refused-input.js";
import { cookieCases, LOGIN_USERS, loginCases } from "./cases/session-login.js";
import { SESSION_USERS, sessionCases } from "./cases/sessions.js";
import { storeScanCases } from "./cases/stores.js";
import { xssCases } from "./cases/xss.js";
import { startTarget, type Framework, type Target } from "./target.js";

/** Registers the whole suite against a freshly scaffolded app of `framework`. */
export function runSecuritySuite(framework: Framework): void {
  describe(`security suite: a scaffolded ${framework} app in production mode`, () => {
    let app: Target | undefined;
    before(async () => {
      app = await startTarget(
        framework,
        framework === "fw-b"
          ? { users: [...LOGIN_USERS, ...SESSION_USERS, ...LIMIT_USERS, ...TIMING_USERS], redisSessions: true }
          : {},
      );
    });
    after(async () => {
      await app?.close();
    });
    const target = () => {
      if (!app) assert.fail(`the ${framework} app did not start`);
      return app;
    };

    describe("stored XSS through Markdown", () => xssCases(target));
    describe("CSRF and CORS", () => csrfCorsCases(target));
    describe("probes and bad input", () => errorCases(target));
    describe("session cookie", () => cookieCases(target, "/posts/edit"));
    describe("security headers", () => headerCases(target));
    describe("through the generated HAProxy", () => proxyCases(target));
    describe("refused input of any size: bounded stores, never 5xx", () => refusedInputCases(target));
    describe("redirect targets with dot segments", () => redirectCases(target));
    // Before the login cases: their per-address case uses up this address's failed-login allowance.
    if (framework === "fw-b") describe("sessions: anonymous visitors and password changes", () => sessionCases(target));
    if (framework === "fw-b") describe("login", () => loginCases(target));
    if (framework === "fw-b") describe("account timing", () => accountTimingCases(target));
    if (framework === "fw-b") describe("limits: concurrency, account pages, mailing forms", () => limitCases(target));
    if (framework === "fw-b")
      describe("mailed links", () =>
        mailLinkCases(target, { hostVictim: "timing2@example.test", forwardedVictim: "timing3@example.test" }));
    // Last: every flow above has written what it writes by now.
    if (framework === "fw-b")
      describe("no secret in clear in any store", () =>
        storeScanCases(target, [...LOGIN_USERS, ...SESSION_USERS, ...LIMIT_USERS]));
  });
  // Apps of their own, built in development: no production target needed.
  describe(`security suite: the development tools of a ${framework} app answer only this machine`, () =>
    devToolCases(framework));
}
