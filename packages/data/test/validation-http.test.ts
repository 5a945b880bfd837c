/**
 * Validation and flash over real HTTP: the same schema answers 422 JSON to API clients and a 303
 * back to the form with errors and old input as flash data for browsers.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { httpClient } from "@fwkit/test-servers";
import { startApp, type TestApp } from "./support/http-app.js";

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

const badForm = { email: "not-an-email", name: "A", age: "7", password: "hunter2hunter2" };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = {
  "Content-Type": "application/x-www-form-urlencoded",
  Accept: "text/html,application/xhtml+xml,*/*;q=0.8",
};

interface ErrorBody {
  error: { status: number; message: string; fields: Record<string, string[]> };
}

describe("validation errors for API clients", () => {
  test("a JSON body gets 422 with per-field messages", async () => {
    const response = await fetch(`${app.origin}/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "x", name: "A", age: "old", password: "short" }),
      redirect: "manual",
    });
    assert.equal(response.status, 422);
    const body = (await response.json()) as ErrorBody;
    assert.equal(body.error.status, 422);
    assert.match(body.error.message, /email/);
    assert.deepEqual(Object.keys(body.error.fields).sort(), ["age", "email", "name", "password"]);
    assert.deepEqual(body.error.fields["name"], ["Name must have at least 2 characters"]);
  });

  test("a JSON route answers 422 JSON even to a form post", async () => {
    const response = await fetch(`${app.origin}/api/users`, {
      method: "POST",
      headers: formHeaders,
      body: form(badForm),
      redirect: "manual",
    });
    assert.equal(response.status, 422);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    const body = (await response.json()) as ErrorBody;
    assert.ok(body.error.fields["email"]?.[0]);
    assert.equal(body.error.fields["password"], undefined);
  });

  test("a client that accepts only JSON gets JSON", async () => {
    const response = await fetch(`${app.origin}/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: form(badForm),
      redirect: "manual",
    });
    assert.equal(response.status, 422);
    assert.ok(((await response.json()) as ErrorBody).error.fields["email"]);
  });

  test("valid input returns the typed, coerced value", async () => {
    const response = await fetch(`${app.origin}/api/users`, {
      method: "POST",
      headers: formHeaders,
      body: form({ email: "ada@example.com", name: "Ada", age: "36", password: "correct horse" }),
    });
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), { email: "ada@example.com", age: 36 });
  });

  test("an XML route answers 422 in XML", async () => {
    const response = await fetch(`${app.origin}/api/users.xml`, {
      method: "POST",
      headers: formHeaders,
      body: form(badForm),
    });
    assert.equal(response.status, 422);
    assert.match(response.headers.get("content-type") ?? "", /application\/xml/);
    const xml = await response.text();
    assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<response><error><status>422<\/status><message>/);
    assert.match(xml, /<fields>.*<email><item>[^<]+<\/item><\/email>.*<\/fields>/);
  });

  test("the query string is validated too", async () => {
    const bad = await fetch(`${app.origin}/search?limit=lots`);
    assert.equal(bad.status, 422);
    assert.deepEqual(Object.keys(((await bad.json()) as ErrorBody).error.fields).sort(), ["limit", "q"]);
    const good = await fetch(`${app.origin}/search?q=koa&limit=5`);
    assert.deepEqual(await good.json(), { q: "koa", limit: 5 });
  });

  test("uploaded files are validated", async () => {
    const upload = async (content: string, type: string) => {
      const data = new FormData();
      data.append("avatar", new Blob([content], { type }), "avatar.png");
      return fetch(`${app.origin}/upload`, { method: "POST", body: data });
    };
    const tooBig = await upload("x".repeat(2000), "image/png");
    assert.equal(tooBig.status, 422);
    assert.deepEqual(((await tooBig.json()) as ErrorBody).error.fields, {
      "avatar.size": ["The avatar must be 1000 bytes or less"],
    });
    const wrongType = await upload("hello", "text/plain");
    assert.equal(wrongType.status, 422);
    assert.deepEqual(((await wrongType.json()) as ErrorBody).error.fields, {
      "avatar.mimetype": ["The avatar must be a PNG image"],
    });
    const none = await fetch(`${app.origin}/upload`, { method: "POST", body: new FormData() });
    assert.equal(none.status, 422);
    assert.ok(((await none.json()) as ErrorBody).error.fields["avatar"]);
    const good = await upload("png!", "image/png");
    assert.equal(good.status, 200);
    assert.deepEqual(await good.json(), { size: 4, type: "image/png" });
  });
});

describe("validation errors for HTML forms", () => {
  test("redirect back to the Referer with errors, old input (no password) and a message, shown once", async () => {
    const browser = httpClient(app.origin);
    const response = await browser.fetch("/signup", {
      method: "POST",
      headers: { ...formHeaders, Referer: `${app.origin}/signup?step=1` },
      body: form(badForm),
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), "/signup?step=1");
    const page = await browser.fetch("/signup?step=1");
    const locals = (await page.json()) as {
      flash_messages: { kind: string; message: string }[];
      errors: Record<string, string[]>;
      old: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(locals.errors).sort(), ["age", "email", "name"]);
    assert.deepEqual(locals.old, { email: "not-an-email", name: "A", age: "7" });
    assert.equal(locals.flash_messages.length, 1);
    assert.equal(locals.flash_messages[0]?.kind, "error");
    assert.match(locals.flash_messages[0]?.message ?? "", /email/);
    const again = (await (await browser.fetch("/signup?step=1")).json()) as typeof locals;
    assert.deepEqual(again, { flash_messages: [], errors: {}, old: {} }, "flash data is read once");
  });

  test("an oversized refused form keeps only its declared fields, within the documented bytes", async () => {
    const browser = httpClient(app.origin);
    const fields: Record<string, string> = { ...badForm };
    // Under koa-body's 56 KB form limit.
    for (let i = 0; i < 24; i++) fields[`junk${i}`] = "x".repeat(2000);
    const response = await browser.fetch("/signup", { method: "POST", headers: formHeaders, body: form(fields) });
    assert.equal(response.status, 303);
    const cookies = response.headers.getSetCookie().join("; ");
    assert.ok(cookies.length < 4096, `the session cookie holds ${cookies.length} characters`);
    const page = (await (await browser.fetch("/signup")).json()) as {
      flash_messages: { message: string }[];
      old: Record<string, unknown>;
    };
    assert.deepEqual(page.old, { email: "not-an-email", name: "A", age: "7" });
  });

  test("a Referer from another site is not followed: back to the same path", async () => {
    const browser = httpClient(app.origin);
    const response = await browser.fetch("/signup", {
      method: "POST",
      headers: { ...formHeaders, Referer: "https://evil.example/phish" },
      body: form(badForm),
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), "/signup");
  });

  test("the form's _back field wins: back to the form's page without a Referer (Referrer-Policy: no-referrer)", async () => {
    const browser = httpClient(app.origin);
    const response = await browser.fetch("/signup", {
      method: "POST",
      headers: formHeaders,
      body: form({ ...badForm, _back: "/notes?page=2" }),
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), "/notes?page=2");
    const withReferer = await httpClient(app.origin).fetch("/signup", {
      method: "POST",
      headers: { ...formHeaders, Referer: `${app.origin}/elsewhere` },
      body: form({ ...badForm, _back: "/notes" }),
    });
    assert.equal(
      withReferer.headers.get("location"),
      "/notes",
      "the field names the form's page; a Referer may be any page",
    );
    const page = (await (await browser.fetch("/signup")).json()) as {
      old: Record<string, unknown>;
      errors: Record<string, string[]>;
    };
    assert.equal(page.old["_back"], undefined, "the back path is not kept as old input");
    assert.ok(page.errors["email"]);
  });

  test("a _back field that leaves the site is ignored, never an open redirect", async () => {
    for (const back of [
      "//evil.example/x",
      "/\\evil.example/x",
      "/\\/evil.example",
      // Dot segments that resolve to a scheme-relative "//host" once normalised.
      "/.//evil.example",
      "/..//evil.example",
      "/a/..//evil.example",
      "/%2e//evil.example",
      "/%2E%2E//evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "notes",
      "/a\r\nSet-Cookie: x=1",
      "/a\tb",
      "",
    ]) {
      const response = await httpClient(app.origin).fetch("/signup", {
        method: "POST",
        headers: { ...formHeaders, Referer: `${app.origin}/signup?step=2` },
        body: form({ ...badForm, _back: back }),
      });
      assert.equal(response.status, 303, JSON.stringify(back));
      assert.equal(
        response.headers.get("location"),
        "/signup?step=2",
        `${JSON.stringify(back)} falls back to the Referer`,
      );
    }
  });

  test("a valid post flashes a message for the next page", async () => {
    const browser = httpClient(app.origin);
    const response = await browser.fetch("/signup", {
      method: "POST",
      headers: formHeaders,
      body: form({ email: "ada@example.com", name: "Ada", age: "36", password: "correct horse" }),
    });
    assert.equal(response.status, 302);
    const locals = (await (await browser.fetch("/signup")).json()) as { flash_messages: unknown[] };
    assert.deepEqual(locals.flash_messages, [{ kind: "success", message: "Welcome, Ada (36)" }]);
  });

  test("a message flashed and rendered on the same request is not shown again", async () => {
    const browser = httpClient(app.origin);
    const now = (await (await browser.fetch("/flash-now")).json()) as { flash_messages: unknown[] };
    assert.deepEqual(now.flash_messages, [{ kind: "info", message: "shown on this page" }]);
    const next = (await (await browser.fetch("/signup")).json()) as { flash_messages: unknown[] };
    assert.deepEqual(next.flash_messages, []);
  });

  test("without a session the form error stays a 422, never a 500", async () => {
    const bare = await startApp({ withoutSession: true });
    try {
      const response = await fetch(`${bare.origin}/signup`, {
        method: "POST",
        headers: formHeaders,
        body: form(badForm),
        redirect: "manual",
      });
      assert.equal(response.status, 422);
    } finally {
      await bare.close();
    }
  });
});

describe("page parameters over HTTP", () => {
  test("bad page and perPage values are 400s with a message; big perPage is clamped", async () => {
    for (const query of [
      "page=abc",
      "page=-1",
      "page=0",
      "page=1.5",
      "perPage=0",
      "page=99999999999999999999",
      "page=1&page=2",
    ]) {
      const response = await fetch(`${app.origin}/list?${query}`);
      assert.equal(response.status, 400, query);
      const body = (await response.json()) as { error: { message: string } };
      assert.match(body.error.message, /page/i, query);
    }
    const clamped = await fetch(`${app.origin}/list?page=2&perPage=100000`);
    assert.deepEqual(await clamped.json(), { page: 2, perPage: 50 });
  });
});
