// The contrib forms' field names (the login field is `identifier`) were documented
// nowhere. docs/fw-b-contrib.md now has a "Form fields" table; this test reads it and checks each
// form the pages render posts exactly the documented fields, so the table cannot drift.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { issueToken } from "../../src/contrib/auth/tokens.js";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

const doc = readFileSync(fileURLToPath(new URL("../../../../docs/fw-b-contrib.md", import.meta.url)), "utf8");

/** The documented fields of each form (`POST /login` -> identifier, password, ...), from the table. */
function documentedFields(): Map<string, string[]> {
  const section = doc.slice(doc.indexOf("## Form fields"), doc.indexOf("\n## ", doc.indexOf("## Form fields") + 3));
  const forms = new Map<string, string[]>();
  for (const line of section.split("\n")) {
    const match = /^\| `POST ([^`]+)` \| (.+) \|$/.exec(line);
    if (!match) continue;
    let text = match[2]!;
    // Drop the explanations in parentheses (they quote characters and values, not fields).
    while (/\([^()]*\)/.test(text)) text = text.replace(/\([^()]*\)/g, "");
    forms.set(match[1]!, text === "none" ? [] : [...text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!).sort());
  }
  return forms;
}

/** The field names of the form posting to `action` on a page (the CSRF and back fields aside). */
function formFields(html: string, action: string | null): string[] {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => (action === null ? !/action=/.test(f[1]!) : f[1]!.includes(`action="${action}"`)));
  assert.ok(form, `a form posting to ${action ?? "its own page"}`);
  return [...new Set([...form[2]!.matchAll(/\bname="([^"]+)"/g)].map((m) => m[1]!))]
    .filter((name) => name !== "_csrf_token" && name !== "_back")
    .sort();
}

async function loginAs(app: ContribApp, username: string, password: string): Promise<HttpClient> {
  const browser = httpClient(app.url);
  const page = (await browser.page("/login")).text;
  await browser.form("/login", { _csrf_token: csrfFrom(page), identifier: username, password });
  return browser;
}

describe("the documented contrib form fields", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp();
  });
  after(() => app.close());

  test("every form a page renders posts exactly the fields docs/fw-b-contrib.md lists", async () => {
    const documented = documentedFields();
    assert.deepEqual(documented.get("/login"), ["identifier", "next", "password", "remember"]);
    const admin = await createUser(app, { username: "chief", password: "chief-password-1", role: "admin" });
    const member = await createUser(app, { username: "someone", password: "someone-password-1" });
    const anonymous = httpClient(app.url);
    const chief = await loginAs(app, "chief", "chief-password-1");
    const token = await issueToken(app.models, member.id, "reset", 3600);
    const pages: Array<[HttpClient, string, string, string | null]> = [
      [anonymous, "/login", "/login", "/login"],
      [anonymous, "/login", "/language", "/language"],
      [anonymous, "/signup", "/signup", "/signup"],
      [anonymous, "/lost-password", "/lost-password", "/lost-password"],
      [anonymous, `/reset-password/${token}`, "/reset-password/:token", null],
      [anonymous, "/contact", "/contact", "/contact"],
      [chief, "/logout", "/logout", "/logout"],
      [chief, "/account", "/account", "/account"],
      [chief, "/account/email", "/account/email", "/account/email"],
      [chief, "/account/password", "/account/password", "/account/password"],
      [chief, "/admin/maintenance", "/admin/maintenance", "/admin/maintenance"],
      [chief, `/admin/users/${member.id}`, "/admin/users/:id/role", `/admin/users/${member.id}/role`],
      [
        chief,
        `/admin/users/${member.id}`,
        "/admin/users/:id/{activate,deactivate,delete,restore,send-reset}",
        `/admin/users/${member.id}/deactivate`,
      ],
    ];
    for (const [browser, page, form, action] of pages) {
      const res = await browser.page(page);
      assert.equal(res.status, 200, page);
      assert.ok(documented.has(form), `docs/fw-b-contrib.md documents POST ${form}`);
      assert.deepEqual(formFields(res.text, action), documented.get(form), `the fields of POST ${form}`);
    }
    assert.ok(admin.id !== member.id);
  });
});
