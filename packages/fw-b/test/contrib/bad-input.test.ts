// Every contrib form with missing, oversized and malicious fields (script tags, SQL fragments,
// Unicode control characters, repeated fields): the form comes back with messages, nothing
// broken is stored, and never a 500.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

const LONG = "x".repeat(6000);
const SCRIPT = "<script>alert(1)</script>";
const SQL = "'; DROP TABLE fwb_users; --";
const CONTROL = "ada\u202Eevil\u0000";

interface FormCase {
  readonly page: string;
  readonly action: string;
  readonly valid: Record<string, string>;
  /** Field -> bad values and the message each must show. */
  readonly bad: Record<string, ReadonlyArray<readonly [string | string[] | undefined, RegExp]>>;
}

const REQUIRED = /This field is required\./;
const TOO_LONG = /Use at most \d+ characters\./;
const NO_MARKUP = /Do not use &lt; or &gt;\./;
const CONTROL_MSG = /Remove the invisible control characters\./;
const EMAIL = /Enter an email address such as ada@example\.com\./;

const FORMS: readonly FormCase[] = [
  {
    page: "/signup",
    action: "/signup",
    valid: {
      username: "newbie",
      email: "newbie@example.test",
      name: "New Bie",
      password: "newbie-pass-1",
      password_confirm: "newbie-pass-1",
    },
    bad: {
      username: [
        [undefined, REQUIRED],
        [SQL, /Use 3 to 32 letters/],
        [SCRIPT, /Use 3 to 32 letters/],
        [LONG, /Use 3 to 32 letters/],
        [CONTROL, /Use 3 to 32 letters/],
        [["a", "b"], REQUIRED],
      ],
      email: [
        [undefined, REQUIRED],
        ["not-an-email", EMAIL],
        [`${SCRIPT}@x.test`, EMAIL],
        [`${"a".repeat(300)}@example.test`, TOO_LONG],
        [`a\u0000@example.test`, EMAIL],
      ],
      name: [
        [undefined, REQUIRED],
        [SCRIPT, NO_MARKUP],
        [LONG, TOO_LONG],
        [CONTROL, CONTROL_MSG],
      ],
      password: [
        [undefined, REQUIRED],
        ["short", /Use at least 8 characters\./],
        ["é".repeat(40), /Use at most 72 bytes/],
        ["good-pass\u0007word", CONTROL_MSG],
      ],
      password_confirm: [["different-pass-1", /The two passwords differ\./]],
    },
  },
  {
    page: "/login",
    action: "/login",
    valid: { identifier: "known", password: "known-password-1" },
    bad: {
      identifier: [
        [undefined, REQUIRED],
        [LONG, TOO_LONG],
        [CONTROL, CONTROL_MSG],
        [SQL, /Wrong username, email or password\./],
      ],
      password: [
        [undefined, REQUIRED],
        [SQL, /Wrong username, email or password\./],
        [LONG, TOO_LONG],
      ],
    },
  },
  {
    page: "/lost-password",
    action: "/lost-password",
    valid: { email: "known@example.test" },
    bad: {
      email: [
        [undefined, REQUIRED],
        [SQL, EMAIL],
        [LONG, TOO_LONG],
        [SCRIPT, EMAIL],
      ],
    },
  },
  {
    page: "/contact",
    action: "/contact",
    valid: { name: "Ada", email: "ada@example.test", subject: "Hello", message: "A long enough message." },
    bad: {
      name: [
        [undefined, REQUIRED],
        [SCRIPT, NO_MARKUP],
        [LONG, TOO_LONG],
        [CONTROL, CONTROL_MSG],
      ],
      email: [
        [undefined, REQUIRED],
        [SQL, EMAIL],
      ],
      subject: [
        [undefined, REQUIRED],
        [LONG, TOO_LONG],
        ["Hi\r\nBcc: x@evil.test", CONTROL_MSG],
      ],
      message: [
        [undefined, REQUIRED],
        ["short", /Use at least 10 characters\./],
        ["x".repeat(5001), TOO_LONG],
        ["hello there\u0000friend", CONTROL_MSG],
      ],
    },
  },
];

describe("contrib forms and bad input", () => {
  let app: ContribApp;
  before(async () => {
    // Each form is posted here far more often than its rate limit allows (the limits have their own tests).
    app = await startContribApp({
      config: {
        rateLimits: {
          signup: false,
          "signup-email": false,
          "lost-password": false,
          "lost-password-email": false,
          contact: false,
          "contact-email": false,
        },
      },
    });
    await createUser(app, { username: "known", password: "known-password-1" });
  });
  after(() => app.close());

  async function submit(
    browser: HttpClient,
    form: FormCase,
    fields: Record<string, string | string[]>,
  ): Promise<{ status: number; page: string }> {
    const html = (await browser.page(form.page)).text;
    const captcha: Record<string, string> = /name="captcha"/.test(html) ? { captcha: app.captcha.last } : {};
    const res = await browser.form(
      form.action,
      { _csrf_token: csrfFrom(html), ...captcha, ...fields },
      { referer: `${app.url}${form.page}` },
    );
    assert.ok(res.status < 500, `${form.action}: ${res.status}`);
    return { status: res.status, page: (await browser.page(form.page)).text };
  }

  for (const form of FORMS) {
    test(`${form.action}: each bad field comes back with its message and nothing is stored`, async () => {
      const browser = httpClient(app.url);
      const usersBefore = await app.models.users.withTrashed().count();
      const messagesBefore = await app.models.contactMessages.count();
      for (const [field, values] of Object.entries(form.bad)) {
        for (const [value, message] of values) {
          const fields: Record<string, string | string[]> = { ...form.valid };
          if (value === undefined) delete fields[field];
          else fields[field] = value;
          const { status, page } = await submit(browser, form, fields);
          assert.equal(status, 303, `${form.action} ${field}=${JSON.stringify(value)?.slice(0, 40)}`);
          assert.match(page, message, `${form.action} ${field}=${JSON.stringify(value)?.slice(0, 40)}`);
          assert.doesNotMatch(page, /<script>alert/, "never echoed unescaped");
        }
      }
      assert.equal(await app.models.users.withTrashed().count(), usersBefore, "no user stored");
      assert.equal(await app.models.contactMessages.count(), messagesBefore, "no message stored");
    });
  }

  test("account forms and the reset form: the same rules; a JSON or oversized body is still a 4xx", async () => {
    const browser = httpClient(app.url);
    const login = (await browser.page("/login")).text;
    await browser.form("/login", { _csrf_token: csrfFrom(login), identifier: "known", password: "known-password-1" });
    const account: Array<[string, Record<string, string>, RegExp]> = [
      ["/account", { name: SCRIPT, locale: "" }, NO_MARKUP],
      ["/account", { name: "Ok", locale: "xx'--" }, /Pick one of the languages offered\./],
      ["/account", { name: CONTROL, locale: "" }, CONTROL_MSG],
      ["/account/email", { email: SQL, current_password: "known-password-1" }, EMAIL],
      ["/account/email", { email: "new@example.test" }, REQUIRED],
      [
        "/account/password",
        { current_password: "known-password-1", password: "short", password_confirm: "short" },
        /Use at least 8 characters\./,
      ],
      [
        "/account/password",
        { current_password: "known-password-1", password: "long-enough-1", password_confirm: "other-thing-1" },
        /The two passwords differ\./,
      ],
    ];
    for (const [path, fields, message] of account) {
      const html = (await browser.page(path)).text;
      const res = await browser.form(
        path,
        { _csrf_token: csrfFrom(html), ...fields },
        { referer: `${app.url}${path}` },
      );
      assert.equal(res.status, 303, `${path} ${JSON.stringify(fields)}`);
      assert.match((await browser.page(path)).text, message, `${path} ${JSON.stringify(fields)}`);
    }
    const known = await app.models.users.findBy({ username: "known" });
    assert.equal(known?.name, "known", "the profile is unchanged");

    const token = csrfFrom((await browser.page("/account")).text);
    const json = await browser.fetch("/account", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json", "x-csrf-token": token },
    });
    assert.equal(json.status, 400);
    const huge = await browser.fetch("/contact", {
      method: "POST",
      body: new URLSearchParams({ _csrf_token: token, message: "x".repeat(2_000_000) }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(huge.status, 413);
    const jsonBody = await browser.fetch("/account", {
      method: "POST",
      body: JSON.stringify({ name: { $gt: "" }, locale: ["en"] }),
      headers: { "content-type": "application/json", "x-csrf-token": token },
    });
    assert.equal(jsonBody.status, 422, "a JSON client gets 422 with field messages");
    const fields = ((await jsonBody.json()) as { error: { fields: Record<string, string[]> } }).error.fields;
    assert.deepEqual(Object.keys(fields).sort(), ["locale", "name"]);
  });
});
