// The navigation menu in the default layout, filtered per request by a visibility predicate.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { HostPlugin } from "@fwkit/koa-host/plugin";
import { startApp, type StartedApp } from "./helpers.js";

/** Stands in for the login battery: `x-user` marks the request as logged in. */
const fakeLogin: HostPlugin = {
  name: "fake-login",
  phases: {
    request: () => [
      (ctx, next) => {
        const user = ctx.get("x-user");
        if (user) ctx.state["user"] = user;
        return next();
      },
    ],
  },
  locals: (ctx) => ({ current_user: ctx.state["user"] ?? null }),
};

const links = (html: string) =>
  [...html.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => `${m[2]} ${m[1]}`);

describe("fw-b navigation menu", () => {
  let app: StartedApp;
  before(async () => {
    app = await startApp({ plugins: [fakeLogin] });
  });
  after(() => app.close());

  const page = async (path: string, user?: string) => {
    const res = await fetch(app.url + path, user ? { headers: { "x-user": user } } : {});
    const html = await res.text();
    return html.slice(html.indexOf('<nav class="fwb-nav"'), html.indexOf("</nav>") + 6);
  };

  test("sections and entries in order; hidden sections are left out for anonymous users", async () => {
    const nav = await page("/");
    assert.deepEqual(links(nav), ["Home /", "Catalog /store", "Teas /store/teas"]);
  });

  test("a logged-in user sees the Account section with its entries in order", async () => {
    const nav = await page("/", "ada");
    assert.deepEqual(links(nav), [
      "Home /",
      "Catalog /store",
      "Teas /store/teas",
      "Account /account/info",
      "Settings /account/settings",
      "Info /account/info",
    ]);
  });

  test("the current page and its section are marked active", async () => {
    const store = await page("/store");
    assert.match(store, /<li class="active"><a href="\/store">Catalog<\/a>/);
    assert.match(store, /<li><a href="\/store\/teas">Teas<\/a>/);
    assert.doesNotMatch(store, /<li class="active"><a href="\/">/);
    const info = await page("/account/info", "ada");
    assert.match(info, /<li class="active"><a href="\/account\/info">Account<\/a>/);
    assert.match(info, /<li class="active"><a href="\/account\/info" aria-current="page">Info<\/a>/);
    assert.match(info, /<li><a href="\/account\/settings">Settings<\/a>/);
  });

  test("the menu is on error pages that extend the layout too", async () => {
    const res = await fetch(`${app.url}/nowhere`);
    assert.equal(res.status, 404);
    assert.match(await res.text(), /<nav class="fwb-nav"/);
  });

  test("plugin locals reach templates next to the view's data", async () => {
    const res = await fetch(`${app.url}/account/info`, { headers: { "x-user": "ada" } });
    assert.match(await res.text(), /<p class="user">ada<\/p>/);
  });
});

describe("fw-b navigation menu in the request's language", () => {
  let app: StartedApp;
  before(async () => {
    app = await startApp({
      config: { contrib: { i18n: { resources: { de: { Catalog: "Katalog", Teas: "Tees" } } } } },
    });
  });
  after(() => app.close());

  test("@navTitle titles the catalogs have are translated; the others are shown as written", async () => {
    const nav = async (lang?: string) => {
      const res = await fetch(`${app.url}/`, lang ? { headers: { "accept-language": lang } } : {});
      const html = await res.text();
      assert.equal(res.status, 200, String((app.errors[0]?.err as Error | undefined)?.stack ?? html.slice(0, 400)));
      return links(html.slice(html.indexOf('<nav class="fwb-nav"'), html.indexOf("</nav>") + 6));
    };
    assert.deepEqual(await nav("de"), ["Home /", "Katalog /store", "Tees /store/teas"]);
    assert.deepEqual(await nav(), ["Home /", "Catalog /store", "Teas /store/teas"]);
  });
});
