// The admin area: @admin on an app class, login and role checks, user management, the messages
// list; and the maintenance switch (admin toggle, CLI-style flag from another connection).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setMaintenance } from "../../src/contrib/index.js";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

async function loginAs(app: ContribApp, username: string, password: string): Promise<HttpClient> {
  const browser = httpClient(app.url);
  const page = (await browser.page("/login")).text;
  const res = await browser.form("/login", { _csrf_token: csrfFrom(page), identifier: username, password });
  assert.equal(res.headers.get("location"), "/", `${username} logs in`);
  return browser;
}

async function act(
  browser: HttpClient,
  page: string,
  action: string,
  fields: Record<string, string> = {},
): Promise<Response> {
  const token = csrfFrom((await browser.page(page)).text);
  return browser.form(action, { _csrf_token: token, ...fields });
}

describe("contrib.admin", () => {
  let app: ContribApp;
  let root: HttpClient;
  before(async () => {
    app = await startContribApp();
    await createUser(app, { username: "root", password: "root-password-1", role: "superadmin" });
    await createUser(app, { username: "boss", password: "boss-password-1", role: "admin" });
    await createUser(app, { username: "mia", password: "mia-password-1" });
    root = await loginAs(app, "root", "root-password-1");
  });
  after(() => app.close());

  test("anonymous: HTML redirects to the login page, JSON gets 401; a member gets 403; an admin gets in", async () => {
    for (const path of ["/admin", "/admin/users", "/admin/catalog"]) {
      const res = await fetch(app.url + path, { redirect: "manual" });
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get("location"), `/login?next=${encodeURIComponent(path)}`);
    }
    const json = await fetch(`${app.url}/admin/users`, { headers: { accept: "application/json" } });
    assert.equal(json.status, 401);
    const member = await loginAs(app, "mia", "mia-password-1");
    const refused = await member.page("/admin/catalog");
    assert.equal(refused.status, 403);
    assert.match(refused.text, /Not allowed/);
    assert.match(refused.text, /This page needs the admin role\./);
    const boss = await loginAs(app, "boss", "boss-password-1");
    const home = await boss.page("/admin");
    assert.equal(home.status, 200);
    assert.match(home.text, /<h1>Dashboard<\/h1>/);
  });

  test("@admin puts the app's Catalog class under /admin/catalog, in the admin layout and menu", async () => {
    const page = await root.page("/admin/catalog");
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1 class="catalog">Catalogue admin<\/h1>/);
    assert.match(
      page.text,
      /<a class="active" href="\/admin\/catalog" aria-current="page"><i class="bi bi-cup"><\/i>Tea catalogue<\/a>/,
    );
    assert.match(page.text, /href="\/admin\/users"><i class="bi bi-people"><\/i>Users<\/a>/);
  });

  test("user list: search and pagination; bad page numbers are 400", async () => {
    for (let i = 0; i < 23; i++)
      await createUser(app, { username: `bulk${String(i).padStart(2, "0")}`, password: undefined });
    const first = await root.page("/admin/users?q=bulk&per_page=10");
    assert.equal(first.status, 200);
    assert.match(first.text, /23 users/);
    assert.equal((first.text.match(/href="\/admin\/users\/\d+">bulk/g) ?? []).length, 10);
    assert.match(first.text, /<nav class="pagination"/);
    const third = await root.page("/admin/users?q=bulk&per_page=10&page=3");
    assert.equal((third.text.match(/href="\/admin\/users\/\d+">bulk/g) ?? []).length, 3);
    assert.equal((await root.page("/admin/users?page=abc")).status, 400);
    const sql = await root.page(`/admin/users?q=${encodeURIComponent("' OR 1=1 --")}`);
    assert.equal(sql.status, 200);
    assert.match(sql.text, /0 users/);
    const wildcard = await root.page("/admin/users?q=%25");
    assert.match(wildcard.text, /0 users/, "% is searched for, not a wildcard");
  });

  test("deactivate: the user is logged out at once and refused at login; activate brings them back", async () => {
    const victim = await createUser(app, { username: "vic", password: "vic-password-1" });
    const vic = await loginAs(app, "vic", "vic-password-1");
    assert.equal((await vic.fetch("/account")).status, 200);
    const res = await act(root, `/admin/users/${victim.id}`, `/admin/users/${victim.id}/deactivate`);
    assert.equal(res.status, 303);
    assert.match((await root.page(`/admin/users/${victim.id}`)).text, /vic is deactivated and can no longer log in\./);
    assert.equal((await vic.fetch("/account")).status, 302, "the open session ends");
    const again = httpClient(app.url);
    const token = csrfFrom((await again.page("/login")).text);
    await again.form("/login", { _csrf_token: token, identifier: "vic", password: "vic-password-1" });
    assert.match((await again.page("/login")).text, /This account is deactivated/);
    await act(root, `/admin/users/${victim.id}`, `/admin/users/${victim.id}/activate`);
    await loginAs(app, "vic", "vic-password-1");
  });

  test("soft delete and restore; roles never above one's own; not on oneself; a reset link by mail", async () => {
    const target = await createUser(app, { username: "tom", password: "tom-password-1" });
    await act(root, `/admin/users/${target.id}`, `/admin/users/${target.id}/delete`);
    assert.equal(await app.models.users.find(target.id), undefined);
    assert.ok(await app.models.users.onlyTrashed().find(target.id));
    assert.match((await root.page("/admin/users?status=deleted")).text, />tom</);
    await act(root, `/admin/users/${target.id}`, `/admin/users/${target.id}/restore`);
    assert.ok(await app.models.users.find(target.id));

    const boss = await loginAs(app, "boss", "boss-password-1");
    await act(boss, `/admin/users/${target.id}`, `/admin/users/${target.id}/role`, { role: "superadmin" });
    assert.match((await boss.page(`/admin/users/${target.id}`)).text, /You cannot give a role above your own\./);
    assert.equal((await app.models.users.find(target.id))?.role, "member");
    await act(boss, `/admin/users/${target.id}`, `/admin/users/${target.id}/role`, { role: "editor" });
    assert.equal((await app.models.users.find(target.id))?.role, "editor");
    await act(boss, `/admin/users/${target.id}`, `/admin/users/${target.id}/role`, { role: "<script>" });
    assert.match((await boss.page(`/admin/users/${target.id}`)).text, /Pick one of the roles offered\./);
    const rootUser = await app.models.users.findBy({ username: "root" });
    const outranked = await act(boss, `/admin/users/${target.id}`, `/admin/users/${rootUser!.id}/deactivate`);
    assert.equal(outranked.status, 403, "an admin cannot touch a superadmin");
    const bossUser = await app.models.users.findBy({ username: "boss" });
    const self = await act(boss, `/admin/users/${target.id}`, `/admin/users/${bossUser!.id}/deactivate`);
    assert.equal(self.status, 403);
    assert.equal((await act(boss, "/admin", "/admin/users/99999/activate")).status, 404);
    assert.equal((await act(boss, "/admin", "/admin/users/1%20OR%201/activate")).status, 404);

    await act(root, `/admin/users/${target.id}`, `/admin/users/${target.id}/send-reset`);
    const mail = await app.nextMail();
    assert.deepEqual(mail.to, ["tom@example.test"]);
    assert.match(mail.text, /\/reset-password\/[A-Za-z0-9_-]{43}/);
  });

  test("without a CSRF token an admin action is refused (403)", async () => {
    const target = await createUser(app, { username: "una", password: "una-password-1" });
    const res = await root.form(`/admin/users/${target.id}/deactivate`, {});
    assert.equal(res.status, 403);
    assert.equal(Boolean((await app.models.users.find(target.id))?.active), true);
  });
});

describe("contrib.maintenance", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp();
    await createUser(app, { username: "admin", password: "admin-password-1", role: "admin" });
  });
  after(() => app.close());

  test("the admin toggle: visitors get 503 with Retry-After and the maintenance page; admin and login still work", async () => {
    const adminBrowser = await loginAs(app, "admin", "admin-password-1");
    const on = await act(adminBrowser, "/admin/maintenance", "/admin/maintenance", { state: "on" });
    assert.equal(on.status, 303);
    const visitor = await fetch(`${app.url}/`);
    assert.equal(visitor.status, 503);
    assert.equal(visitor.headers.get("retry-after"), "600");
    const html = await visitor.text();
    assert.match(html, /Down for maintenance/);
    const json = await fetch(`${app.url}/api`, { headers: { accept: "application/json" } });
    assert.equal(json.status, 503);
    assert.equal(((await json.json()) as { error: { status: number } }).error.status, 503);
    assert.equal((await fetch(`${app.url}/login`)).status, 200, "the login page stays open");
    assert.equal((await fetch(`${app.url}/contact`)).status, 503);
    assert.equal((await adminBrowser.page("/admin/maintenance")).status, 200, "the admin area works");
    assert.equal((await adminBrowser.page("/")).status, 200, "an admin sees the site");
    assert.match((await adminBrowser.page("/")).text, /Maintenance is on: visitors see the maintenance page\./);
    await act(adminBrowser, "/admin/maintenance", "/admin/maintenance", { state: "off" });
    assert.equal((await fetch(`${app.url}/`)).status, 200);
    assert.equal((await act(adminBrowser, "/admin/maintenance", "/admin/maintenance", { state: "maybe" })).status, 400);
  });

  test("the flag lives in the database: a change made by another process (the CLI) is seen", async () => {
    await setMaintenance(app.models.users.knex, true);
    assert.equal((await fetch(`${app.url}/`)).status, 503);
    await setMaintenance(app.models.users.knex, false);
    assert.equal((await fetch(`${app.url}/`)).status, 200);
  });
});
