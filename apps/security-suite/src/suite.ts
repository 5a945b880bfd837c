/**
 * The security suite, in groups that each start their own target, so no test file nears the test
 * runner's per-file timeout: the attacks every app faces, against an app scaffolded with the
 * framework's init command in production mode (fw-b's in two halves); fw-b's account cases in three
 * groups (sessions; login and mailed links; timing and limits), each against an fw-b app of its own with only the users it needs and ending with
 * the store scan over what its flows wrote; and the development tools, against apps built in
 * development in the test's own process. fw-b runs with Redis sessions, failed-login counters and
 * job queue, as the attacked deployment had them; fw-a has no login pages of its own and keeps the
 * default signed-cookie sessions.
 */
import assert from "node:assert/strict";
import { after, before, describe } from "node:test";
import { accountTimingCases, TIMING_USERS } from "./cases/account-timing.js";
import { csrfCorsCases } from "./cases/csrf-cors.js";
import { devToolCases } from "./cases/dev-tools.js";
import { errorCases } from "./cases/errors.js";
import { headerCases } from "./cases/headers.js";
import { LIMIT_USERS, limitCases } from "./cases/limits.js";
import { MAIL_LINK_USERS, mailLinkCases } from "./cases/mail-links.js";
import { proxyCases } from "./cases/proxy.js";
import { redirectCases } from "./cases/redirects.js";
import { refusedInputCases } from "./cases/refused-input.js";
import { cookieCases, LOGIN_TIMING_USERS, LOGIN_USERS, loginCases, loginTimingCases } from "./cases/session-login.js";
import { SESSION_USERS, sessionCases } from "./cases/sessions.js";
import { storeScanCases } from "./cases/stores.js";
import { xssCases } from "./cases/xss.js";
import { startTarget, type Framework, type SuiteUser, type Target } from "./target.js";

/**
 * Registers a `describe` whose cases share one target, started before them and closed after;
 * `cases` gets the accessor, which fails naming the framework when the target did not start.
 */
function withTarget(
  title: string,
  framework: Framework,
  options: { users?: readonly SuiteUser[]; redisSessions?: boolean },
  cases: (target: () => Target) => void,
): void {
  describe(title, () => {
    let app: Target | undefined;
    before(async () => {
      app = await startTarget(framework, options);
    });
    after(async () => {
      await app?.close();
    });
    cases(() => {
      if (!app) assert.fail(`the ${framework} app did not start`);
      return app;
    });
  });
}

/**
 * Registers the attacks every app faces against a freshly scaffolded app of `framework` in
 * production mode; for fw-b, `part` chooses half of them (each half starts its own app): the
 * requests (`"requests"`: XSS, CSRF and CORS, probes, cookies, headers, the HAProxy) or the refused
 * input and redirects (`"input"`). fw-a runs them all against one app.
 */
export function runAttackSuite(framework: Framework, part?: "requests" | "input"): void {
  // fw-b with Redis sessions, so the refused-input case measures what reaches Redis; no case here
  // logs a user in, so the target needs none.
  const options = framework === "fw-b" ? { redisSessions: true } : {};
  const title = `security suite: a scaffolded ${framework} app in production mode${part ? ` (${part})` : ""}`;
  withTarget(title, framework, options, (target) => {
    if (part !== "input") {
      describe("stored XSS through Markdown", () => xssCases(target));
      describe("CSRF and CORS", () => csrfCorsCases(target));
      describe("probes and bad input", () => errorCases(target));
      describe("session cookie", () => cookieCases(target, "/posts/edit"));
      describe("security headers", () => headerCases(target));
      describe("through the generated HAProxy", () => proxyCases(target));
    }
    if (part !== "requests") {
      describe("refused input of any size: bounded stores, never 5xx", () => refusedInputCases(target));
      describe("redirect targets with dot segments", () => redirectCases(target));
    }
  });
}

/**
 * Registers one group of fw-b's account cases against a scaffolded fw-b app of its own started with
 * `users`, then the store scan over everything the group's flows wrote (each group mails a reset
 * link through the app's job queue, so the scan always has mailed secrets to look for).
 */
function accountGroup(title: string, users: readonly SuiteUser[], cases: (target: () => Target) => void): void {
  withTarget(
    `security suite: ${title} of a scaffolded fw-b app in production mode`,
    "fw-b",
    { users, redisSessions: true },
    (target) => {
      cases(target);
      // Last: every flow above has written what it writes by now.
      describe("no secret in clear in any store", () => storeScanCases(target, users));
    },
  );
}

/** Registers fw-b's session cases (anonymous visitors, password changes, a mailed reset). */
export function runSessionSuite(): void {
  accountGroup("the sessions", SESSION_USERS, (target) => {
    describe("sessions: anonymous visitors and password changes", () => sessionCases(target));
  });
}

/** Registers fw-b's login cases (rotation, logout, throttles) and the mailed-link cases (reset mails to the victims). */
export function runLoginSuite(): void {
  accountGroup("the login", [...LOGIN_USERS, ...MAIL_LINK_USERS], (target) => {
    describe("login", () => loginCases(target));
    describe("mailed links", () =>
      mailLinkCases(target, { hostVictim: MAIL_LINK_USERS[0]!.email, forwardedVictim: MAIL_LINK_USERS[1]!.email }));
  });
}

/**
 * Registers fw-b's timing cases (login, and account timing with its reset mails), then the limit
 * cases, whose bursts come after the timing samples.
 */
export function runTimingSuite(): void {
  accountGroup("the timing and limits", [...LOGIN_TIMING_USERS, ...TIMING_USERS, ...LIMIT_USERS], (target) => {
    describe("login timing", () => loginTimingCases(target));
    describe("account timing", () => accountTimingCases(target));
    describe("limits: concurrency, account pages, mailing forms", () => limitCases(target));
  });
}

/** Registers the development-tool cases of `framework`: apps of their own built in development, no production target. */
export function runDevToolSuite(framework: Framework): void {
  describe(`security suite: the development tools of a ${framework} app answer only this machine`, () =>
    devToolCases(framework));
}
