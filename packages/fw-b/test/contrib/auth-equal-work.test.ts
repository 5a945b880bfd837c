// Account enumeration by timing: every path of login, signup ("address in use"),
// lost password and the resent confirmation link does the same hashing work whether the account
// exists or not, at the configured cost (the unknown account's dummy hash is made at start-up with
// the app's algorithm and cost, not a fixed bcrypt-10 hash). Counted, not timed: every bcrypt call
// is recorded through the module object the security package loads.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

interface Bcrypt {
  hash(data: string, rounds: number): Promise<string>;
  compare(data: string, encrypted: string): Promise<boolean>;
}
const bcrypt = createRequire(fileURLToPath(import.meta.resolve("@fwkit/security")))("bcrypt") as Bcrypt;
const calls: string[] = [];

async function postForm(app: ContribApp, page: string, fields: Record<string, string>): Promise<Response> {
  const browser = httpClient(app.url);
  const html = (await browser.page(page)).text;
  const extra: Record<string, string> = /name="captcha"/.test(html) ? { captcha: app.captcha.last } : {};
  return browser.form(page, { _csrf_token: csrfFrom(html), ...extra, ...fields }, { referer: `${app.url}${page}` });
}

/** The bcrypt calls one request made ("hash 04" / "compare $2b$04$"). */
async function workOf(send: () => Promise<Response>): Promise<string[]> {
  calls.length = 0;
  const res = await send();
  assert.ok(res.status < 500, `answered ${res.status}`);
  return [...calls].map((call) => call.replace(/^(compare \$2b\$\d\d\$).*/, "$1"));
}

describe("contrib.auth does the same hashing work whether an account exists or not", () => {
  const original = { hash: bcrypt.hash, compare: bcrypt.compare };
  let app: ContribApp;
  let strict: ContribApp;
  before(async () => {
    bcrypt.hash = (data, rounds) => {
      calls.push(`hash ${String(rounds).padStart(2, "0")}`);
      return original.hash.call(bcrypt, data, rounds);
    };
    bcrypt.compare = (data, encrypted) => {
      calls.push(`compare ${encrypted}`);
      return original.compare.call(bcrypt, data, encrypted);
    };
    const limits = { loginLimitAccount: 1000, loginLimitAddress: 1000 };
    app = await startContribApp({ config: { ...limits, bcryptCost: 5 } });
    strict = await startContribApp({
      config: { ...limits, bcryptCost: 5 },
      contrib: { auth: { requireVerification: true } },
    });
    for (const target of [app, strict]) {
      await createUser(target, {
        username: "known",
        password: "known-password-1",
        password_hash: await original.hash.call(bcrypt, "known-password-1", 5),
      });
      await createUser(target, { username: "oauthonly" });
      await createUser(target, {
        username: "gone",
        password_hash: await original.hash.call(bcrypt, "gone-password-1", 5),
        active: false,
      });
      await createUser(target, {
        username: "unconfirmed",
        password_hash: await original.hash.call(bcrypt, "unconfirmed-pass-1", 5),
        email_verified_at: null,
      });
    }
  });
  after(async () => {
    Object.assign(bcrypt, original);
    await app?.close();
    await strict?.close();
  });

  test("login: unknown account, wrong password, account without password, deactivated, success: one compare at the configured cost", async () => {
    const tries: Array<[string, string]> = [
      ["nobody", "some-password-1"],
      ["nobody@example.test", "some-password-1"],
      ["known", "wrong-password-1"],
      ["oauthonly", "some-password-1"],
      ["gone", "gone-password-1"],
      ["known", "known-password-1"],
    ];
    for (const [identifier, password] of tries) {
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(
          await workOf(() => postForm(app, "/login", { identifier, password })),
          ["compare $2b$05$"],
          `${identifier} / ${password}`,
        );
      }
    }
  });

  test("resent confirmation (requireVerification): an unconfirmed account costs what an unknown one does", async () => {
    const unconfirmed = await workOf(() =>
      postForm(strict, "/login", { identifier: "unconfirmed", password: "unconfirmed-pass-1" }),
    );
    const unknown = await workOf(() =>
      postForm(strict, "/login", { identifier: "stranger", password: "unconfirmed-pass-1" }),
    );
    assert.deepEqual(unconfirmed, ["compare $2b$05$"]);
    assert.deepEqual(unknown, unconfirmed);
    await strict.nextMail();
  });

  test("signup with an address in use hashes the password like a new account does", async () => {
    const fields = { name: "Someone", password: "a-new-password-1", password_confirm: "a-new-password-1" };
    const fresh = await workOf(() =>
      postForm(app, "/signup", { ...fields, username: "newcomer", email: "newcomer@example.test" }),
    );
    await app.nextMail();
    const taken = await workOf(() =>
      postForm(app, "/signup", { ...fields, username: "someoneelse", email: "known@example.test" }),
    );
    await app.nextMail();
    assert.deepEqual(fresh, ["hash 05"]);
    assert.deepEqual(taken, fresh);
  });

  test("lost password: the same (no) hashing work for a known and an unknown address", async () => {
    const known = await workOf(() => postForm(app, "/lost-password", { email: "known@example.test" }));
    await app.nextMail();
    const unknown = await workOf(() => postForm(app, "/lost-password", { email: "nobody@example.test" }));
    assert.deepEqual(known, unknown);
  });

  test("a hash of an older cost is upgraded at the next login, so real hashes cost what the dummy costs", async () => {
    const old = await createUser(app, {
      username: "oldhash",
      password_hash: await original.hash.call(bcrypt, "old-hash-pass-1", 4),
    });
    const work = await workOf(() => postForm(app, "/login", { identifier: "oldhash", password: "old-hash-pass-1" }));
    assert.deepEqual(
      work,
      ["compare $2b$04$", "hash 05"],
      "verified against the old hash, then hashed at the app's cost",
    );
    assert.match((await app.models.users.find(old.id))!.password_hash ?? "", /^\$2b\$05\$/);
    assert.deepEqual(
      await workOf(() => postForm(app, "/login", { identifier: "oldhash", password: "old-hash-pass-1" })),
      ["compare $2b$05$"],
    );
  });
});
