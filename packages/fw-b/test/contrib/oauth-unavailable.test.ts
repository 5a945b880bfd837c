// An OAuth provider that cannot be reached answered 400, as if the visitor had erred.
// Now 503 with a page saying the provider is unavailable: at the start (OpenID Connect discovery)
// and at the callback (the token exchange). The provider URLs point at a closed port on 127.0.0.1.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, describe, test } from "node:test";
import { httpClient } from "@fwkit/test-servers";
import { startContribApp, type ContribApp } from "./fixture.js";

/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("contrib.oauth with an unreachable provider", () => {
  let app: ContribApp;
  before(async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    app = await startContribApp({
      contrib: {
        auth: true,
        errors: true,
        oauth: {
          providers: {
            gone: {
              type: "oidc",
              issuer: down,
              clientId: "c",
              clientSecret: "s",
              title: "Gone ID",
              allowInsecure: true,
            },
            hub: {
              type: "oauth2",
              clientId: "c",
              clientSecret: "s",
              authorizationEndpoint: `${down}/authorize`,
              tokenEndpoint: `${down}/token`,
              userinfoEndpoint: `${down}/userinfo`,
              allowInsecure: true,
            },
          },
        },
      },
    });
  });
  after(() => app.close());

  test("starting a sign-in whose discovery cannot connect is a 503 page saying the provider is unavailable", async () => {
    const res = await httpClient(app.url).fetch("/oauth/gone", { headers: { accept: "text/html" } });
    const html = await res.text();
    assert.equal(res.status, 503, html.slice(0, 300));
    assert.match(html, /Temporarily unavailable/);
    assert.match(html, /Signing in with Gone ID is not possible right now: the provider is unavailable/);
  });

  test("a callback whose token exchange cannot connect is a 503, not a 400", async () => {
    const browser = httpClient(app.url);
    const started = await browser.fetch("/oauth/hub");
    assert.equal(started.status, 303);
    const state = new URL(started.headers.get("location")!).searchParams.get("state");
    assert.ok(state, "the authorization URL carries a state");
    const res = await browser.fetch(`/oauth/hub/callback?code=abc&state=${encodeURIComponent(state)}`, {
      headers: { accept: "text/html" },
    });
    const html = await res.text();
    assert.equal(res.status, 503, html.slice(0, 300));
    assert.match(html, /the provider is unavailable/);
  });

  test("a forged state at a reachable-or-not provider is still the visitor's 400", async () => {
    const browser = httpClient(app.url);
    await browser.fetch("/oauth/hub");
    const res = await browser.fetch("/oauth/hub/callback?code=abc&state=forged");
    assert.equal(res.status, 400);
  });
});
