/**
 * The login manager's object form of attemptLogin: the failed-login
 * limit counts per resolved account, so alternating username, email, case and spaces gains no
 * tries; unknown names count per normalised name; and every path verifies exactly one hash of the
 * configured cost, the dummy one made at start-up when there is no account or no password.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, test } from "node:test";
import type bcryptModule from "bcrypt";
import { attemptLogin, csrfToken, hashPassword } from "../src/index.js";
import { post, startApp, View, type TestApp } from "./helpers/app.js";
import { HttpClient, type HttpAnswer } from "@fwkit/test-servers";

interface Account {
  id: string;
  username: string;
  email: string;
  hash: string | null;
}

const accounts: Account[] = [];
let verified: string[] = [];

class Auth extends View {
  form() {
    return { token: csrfToken(this.ctx) };
  }

  @post
  async login() {
    const { identifier = "", password = "" } = (this.ctx.request as { body?: Record<string, string> }).body ?? {};
    const user = await attemptLogin(this.ctx, identifier, {
      find: (name) => accounts.find((a) => a.username === name || a.email === name),
      password,
      passwordHash: (a) => a.hash,
    });
    this.ctx.status = user ? 200 : 401;
    return user ? { ok: true, user: user.username } : { error: "wrong identifier or password" };
  }
}

async function attempt(client: HttpClient, identifier: string, password: string): Promise<HttpAnswer> {
  const { token } = (await client.get("/auth/form")).json<{ token: string }>();
  return client.post("/auth/login", { form: { identifier, password, _csrf_token: token } });
}

describe("attemptLogin with a credential check", () => {
  const apps: TestApp[] = [];
  const bcrypt = createRequire(import.meta.url)("bcrypt") as typeof bcryptModule;
  const compare = bcrypt.compare;

  before(async () => {
    accounts.push(
      {
        id: "1",
        username: "alice",
        email: "alice@example.test",
        hash: await hashPassword("wonderland", { bcryptCost: 5 }),
      },
      { id: "2", username: "oauth-only", email: "oauth@example.test", hash: null },
    );
    // Records the hash of every verification, through the module object the security package loads.
    bcrypt.compare = ((password: string, hash: string) => {
      verified.push(hash);
      return (compare as (data: string, encrypted: string) => Promise<boolean>).call(bcrypt, password, hash);
    }) as typeof bcrypt.compare;
  });
  after(async () => {
    bcrypt.compare = compare;
    for (const app of apps) await app.close();
  });

  test("alternating username, email, case and spaces shares one account counter", async () => {
    const app = await startApp({
      views: { Auth },
      config: { bcryptCost: 5 },
      security: {
        loadUser: (id) => accounts.find((a) => a.id === id),
        loginLimitAccount: 4,
        loginLimitAddress: 100,
        loginLimitWindow: 60,
      },
    });
    apps.push(app);
    const client = new HttpClient(app.url);
    for (const name of ["alice", "alice@example.test", "ALICE", " Alice@Example.TEST "])
      assert.equal((await attempt(client, name, "guess")).status, 401, name);
    const limited = await attempt(client, "\uff41lice", "wonderland");
    assert.equal(
      limited.status,
      429,
      "the fifth try, by any of the account's names, is refused even with the right password",
    );
    assert.ok(Number(limited.headers.get("retry-after")) >= 1);
    assert.equal((await attempt(client, "alice@example.test", "wonderland")).status, 429);
  });

  test("unknown names count per normalised name (trim, case, NFKC)", async () => {
    const app = await startApp({
      views: { Auth },
      config: { bcryptCost: 5 },
      security: { loginLimitAccount: 3, loginLimitAddress: 100, loginLimitWindow: 60 },
    });
    apps.push(app);
    const client = new HttpClient(app.url);
    for (const name of ["zed", " ZED", "\uff5a\uff45\uff44"])
      assert.equal((await attempt(client, name, "guess")).status, 401, name);
    assert.equal((await attempt(client, "Zed ", "guess")).status, 429);
    assert.equal((await attempt(client, "alice", "wonderland")).status, 200, "other accounts are not affected");
  });

  test("the per-address limit still holds across accounts and names", async () => {
    const app = await startApp({
      views: { Auth },
      config: { bcryptCost: 5 },
      security: { loginLimitAccount: 100, loginLimitAddress: 3, loginLimitWindow: 60 },
    });
    apps.push(app);
    const client = new HttpClient(app.url);
    for (const name of ["alice", "bob", "carol"]) assert.equal((await attempt(client, name, "guess")).status, 401);
    assert.equal((await attempt(client, "alice", "wonderland")).status, 429);
  });

  test("every path verifies exactly one hash of the configured cost (unknown, wrong password, no password, success)", async () => {
    const app = await startApp({
      views: { Auth },
      config: { bcryptCost: 5 },
      security: {
        loadUser: (id) => accounts.find((a) => a.id === id),
        loginLimitAccount: 1000,
        loginLimitAddress: 1000,
      },
    });
    apps.push(app);
    const paths: Array<[string, string, string, number]> = [
      ["unknown account", "nobody", "guess", 401],
      ["wrong password", "alice", "guess", 401],
      ["account without a password", "oauth-only", "guess", 401],
      ["right password", "alice", "wonderland", 200],
    ];
    for (const [what, identifier, password, status] of paths) {
      for (let i = 0; i < 5; i++) {
        verified = [];
        const res = await attempt(new HttpClient(app.url), identifier, password);
        assert.equal(res.status, status, what);
        assert.equal(verified.length, 1, `${what}: one verification`);
        assert.match(verified[0]!, /^\$2b\$05\$/, `${what}: at the configured cost`);
      }
    }
  });
});
