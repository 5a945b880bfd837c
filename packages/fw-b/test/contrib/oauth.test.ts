// contrib.oauth end to end against a local OpenID Connect provider (oauth2-mock-server on
// 127.0.0.1): a new account from a verified email, linking to an existing account by verified
// email, refusing an unverified address, state checks; and the oauth2 (non-OIDC) path.
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { OAuth2Server } from "oauth2-mock-server";
import { httpClient, type HttpClient } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

/** The app's redirect to the provider, the provider's redirect back (it asks no questions), the callback. */
async function signIn(browser: HttpClient, start: string): Promise<Response> {
  const res = await browser.fetch(start);
  const location = res.headers.get("location");
  if (res.status !== 303 || !location?.startsWith("http://127.0.0.1:")) return res;
  const provider = await fetch(location, { redirect: "manual" });
  const back = new URL(provider.headers.get("location")!);
  return browser.fetch(`${back.pathname}${back.search}`);
}

describe("contrib.oauth with a local OpenID Connect provider", () => {
  let provider: OAuth2Server;
  let app: ContribApp;
  let profile: Record<string, unknown> = {};

  before(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    // Everything on 127.0.0.1 (the mock names itself localhost by default).
    provider.issuer.url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    provider.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      Object.assign(token.payload, profile);
    });
    app = await startContribApp({
      contrib: {
        auth: true,
        oauth: {
          providers: {
            local: {
              type: "oidc",
              issuer: provider.issuer.url!,
              clientId: "fw-b-test",
              clientSecret: "secret",
              title: "Local ID",
              allowInsecure: true,
            },
          },
        },
      },
    });
  });
  after(async () => {
    await app.close();
    await provider.stop();
  });

  test("the login page offers the provider; a verified new address makes an account and logs it in", async () => {
    assert.match(
      (await httpClient(app.url).page("/login")).text,
      /href="\/oauth\/local"[^>]*>.*Continue with Local ID/,
    );
    profile = { sub: "sub-new-1", email: "Newcomer@Example.test", email_verified: true, name: "New <Comer>" };
    const browser = httpClient(app.url);
    const res = await signIn(browser, "/oauth/local?next=%2Faccount");
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/account");
    const user = await app.models.users.findBy({ email: "newcomer@example.test" });
    assert.ok(user, "an account was made");
    assert.equal(user.username, "newcomer");
    assert.equal(user.name, "New Comer", "markup characters dropped");
    assert.ok(user.email_verified_at);
    assert.equal((await browser.fetch("/account")).status, 200, "logged in");
    const again = httpClient(app.url);
    await signIn(again, "/oauth/local");
    assert.equal(await app.models.users.count(), 1, "the same subject logs into the same account");
  });

  test("an existing account is linked by verified email; an unverified email is refused", async () => {
    const existing = await createUser(app, {
      username: "linked",
      password: "linked-pass-1",
      email: "linked@example.test",
    });
    profile = { sub: "sub-linked", email: "linked@example.test", email_verified: false };
    const refused = await signIn(httpClient(app.url), "/oauth/local");
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /the provider did not confirm your email address/);
    assert.equal(await app.models.oauthAccounts.findBy({ subject: "sub-linked" }), undefined);

    profile = { sub: "sub-linked", email: "linked@example.test", email_verified: true };
    const browser = httpClient(app.url);
    const res = await signIn(browser, "/oauth/local");
    assert.equal(res.status, 303);
    const link = await app.models.oauthAccounts.findBy({ subject: "sub-linked" });
    assert.equal(link?.user_id, existing.id);
    assert.match((await browser.page("/account")).text, /Username: linked/);
  });

  test("a deactivated account is refused; a callback without a started sign-in or with a wrong state is a 400", async () => {
    await createUser(app, { username: "blocked", email: "blocked@example.test", active: false });
    profile = { sub: "sub-blocked", email: "blocked@example.test", email_verified: true };
    const blocked = await signIn(httpClient(app.url), "/oauth/local");
    assert.equal(blocked.status, 400);
    assert.match(await blocked.text(), /deactivated/);

    const stray = await httpClient(app.url).fetch("/oauth/local/callback?code=abc&state=xyz");
    assert.equal(stray.status, 400);
    const browser = httpClient(app.url);
    const start = await browser.fetch("/oauth/local");
    const authorize = await fetch(start.headers.get("location")!, { redirect: "manual" });
    const back = new URL(authorize.headers.get("location")!);
    back.searchParams.set("state", "forged");
    const forged = await browser.fetch(`${back.pathname}${back.search}`);
    assert.equal(forged.status, 400);
    assert.equal((await httpClient(app.url).fetch("/oauth/nope")).status, 404);
  });
});

describe("contrib.oauth with a plain OAuth 2 provider (explicit endpoints and a userinfo endpoint)", () => {
  let provider: OAuth2Server;
  let app: ContribApp;
  before(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    const base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    provider.issuer.url = base;
    provider.service.on("beforeUserinfo", (response: { body: Record<string, unknown> }) => {
      response.body = { id: 4242, email: "octo@example.test", email_verified: true, name: "Octo Cat" };
    });
    app = await startContribApp({
      contrib: {
        auth: true,
        oauth: {
          providers: {
            hub: {
              type: "oauth2",
              clientId: "c",
              clientSecret: "s",
              authorizationEndpoint: `${base}/authorize`,
              tokenEndpoint: `${base}/token`,
              userinfoEndpoint: `${base}/userinfo`,
              allowInsecure: true,
            },
          },
        },
      },
    });
  });
  after(async () => {
    await app.close();
    await provider.stop();
  });

  test("the profile comes from the userinfo endpoint; the account is made and logged in", async () => {
    const browser = httpClient(app.url);
    const res = await signIn(browser, "/oauth/hub");
    assert.equal(res.status, 303, await res.clone().text());
    const link = await app.models.oauthAccounts.findBy({ provider: "hub" });
    assert.equal(link?.subject, "4242");
    assert.equal((await app.models.users.find(link!.user_id))?.email, "octo@example.test");
    assert.equal((await browser.fetch("/account")).status, 200);
  });
});
