/**
 * Refused input of any size leaves a bounded trace: every form of the target (contrib's login,
 * sign-up, lost-password and contact forms, the generated `memos` form) and its JSON API (the
 * generated `gadgets`), posted anonymously with the right CSRF token, a field the form refuses and
 * a hundred extra fields of 2,000 characters, never answers 5xx and adds at most
 * {@link REFUSED_POST_BYTES} bytes to any store per post: a form keeps only its declared fields, within
 * the documented limits, for the next page. With Redis sessions (fw-b) the bytes are measured in
 * Redis under the app's prefix; with cookie sessions (fw-a) the cookie must stay one a browser keeps.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { csrfFrom, httpClient, serverUrls, type HttpAnswer } from "@fwkit/test-servers";
import { BEHIND_TLS } from "../behind-tls.js";
import type { Target } from "../target.js";

/**
 * The most one refused anonymous post may add to the session store, with Redis's own overhead per
 * key: the flash data a refused form keeps (under 3 KB, `REFUSED_INPUT_LIMITS` of @fwkit/data)
 * plus the session's own fields and the key.
 */
export const REFUSED_POST_BYTES = 4096;

/** Extra fields of 2,000 characters each: 200 KB a post, under the apps' form body limit. */
function padding(count = 100, length = 2000): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i < count; i++) fields[`extra_${i}`] = `${i}`.padEnd(length, "x");
  return fields;
}

/** Bytes Redis holds for every key under `prefix` (MEMORY USAGE, summed in one script). */
function redisBytes(prefix: string): number {
  const script = `local total = 0 local cursor = '0'
repeat
  local r = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = r[1]
  for _, key in ipairs(r[2]) do total = total + (redis.call('MEMORY', 'USAGE', key) or 0) end
until cursor == '0'
return total`;
  const result = spawnSync("redis-cli", ["-u", serverUrls.redis, "EVAL", script, "0", `${prefix}*`], {
    encoding: "utf8",
  });
  if (result.status !== 0) assert.fail(`redis-cli EVAL failed: ${result.stderr}`);
  return Number(result.stdout.trim());
}

/** A form of the target, the page it is on and the fields that get it refused. */
interface RefusedForm {
  readonly page: string;
  readonly action: string;
  readonly fields: Record<string, string>;
}

function formsOf(app: Target): RefusedForm[] {
  const memo = { page: app.path("/memos/new"), action: app.path("/memos"), fields: { title: "", body: "b" } };
  if (app.framework === "fw-a") return [memo];
  return [
    memo,
    { page: "/login", action: "/login", fields: { identifier: "", password: "x", next: "/" } },
    { page: "/signup", action: "/signup", fields: { username: "", email: "nobody", password: "x" } },
    { page: "/lost-password", action: "/lost-password", fields: { email: "not-an-address" } },
    { page: "/contact", action: "/contact", fields: { name: "", email: "nobody", subject: "", message: "" } },
  ];
}

let addresses = 0;

/** One anonymous visitor (a client address of its own, so per-client limits stay out of the way): GET the form, POST it refused. */
async function refusedPost(app: Target, form: RefusedForm, extra: Record<string, string>): Promise<HttpAnswer> {
  const headers = { "x-forwarded-for": `203.0.113.${(addresses++ % 250) + 1}` };
  const visitor = httpClient(app.url, BEHIND_TLS);
  const page = await visitor.send(form.page, { headers });
  assert.equal(page.status, 200, `${form.page}: ${page.status} ${page.text.slice(0, 200)}`);
  return visitor.submit(
    form.action,
    { _csrf_token: csrfFrom(page.text), _back: form.page, ...form.fields, ...extra },
    headers,
  );
}

function assertNot5xx(answer: HttpAnswer, what: string, app?: Target): void {
  if (answer.status < 500) return;
  const log = app ? `\nthe app's log:\n${app.log().slice(-3000)}` : "";
  assert.fail(`${what}: ${answer.status} ${answer.text.slice(0, 300)}${log}`);
}

/** A route of the target's table (`.suite-routes.json`, written by serve.ts). */
interface ListedRoute {
  readonly verbs: readonly string[];
  readonly path: string;
  readonly handler: string;
}

/** Every route of the target with its parameters filled in (`/memos/<id>` becomes `/memos/1`). */
function routesOf(app: Target): Array<ListedRoute & { readonly url: string }> {
  const listed = JSON.parse(readFileSync(join(app.root, ".suite-routes.json"), "utf8")) as ListedRoute[];
  return listed.map((route) => ({
    ...route,
    url: route.path.replace(/<[^>]+>|:[A-Za-z_]\w*|\{[^}]+\}|\*\w*/g, "1"),
  }));
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Registers the refused-input cases against a target (Redis sessions or cookie sessions). */
export function refusedInputCases(target: () => Target): void {
  test("100 oversized anonymous refused form posts never answer 5xx and add at most a few KB each to the session store", async (t) => {
    const app = target();
    const forms = formsOf(app);
    const extra = padding();
    const before = app.sessionPrefix ? redisBytes(app.sessionPrefix) : 0;
    const statuses: Record<string, number> = {};
    for (let i = 0; i < 100; i++) {
      const form = forms[i % forms.length]!;
      const answer = await refusedPost(app, form, extra);
      assertNot5xx(answer, `${form.action} #${i}`, app);
      // Back to the form with its messages (303), or a refusal of the size (413) or input (422).
      assert.ok([303, 413, 422].includes(answer.status), `${form.action}: ${answer.status}`);
      const key = `${form.action} ${answer.status}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
      const cookies = answer.headers.getSetCookie().join("; ");
      assert.ok(cookies.length < 4096, `${form.action}: Set-Cookie of ${cookies.length} characters`);
      assert.ok(!cookies.includes("x".repeat(100)), `${form.action}: the extra fields are not in a cookie`);
    }
    if (app.sessionPrefix) {
      const added = redisBytes(app.sessionPrefix) - before;
      t.diagnostic(`100 refused posts of 200 KB each added ${added} bytes to Redis: ${JSON.stringify(statuses)}`);
      assert.ok(
        added <= 100 * REFUSED_POST_BYTES,
        `100 refused posts added ${added} bytes to Redis (at most ${100 * REFUSED_POST_BYTES}): ${JSON.stringify(statuses)}`,
      );
    }
  });

  test("a refused form comes back with its declared fields only, never the extra ones", async () => {
    const app = target();
    for (const form of formsOf(app)) {
      const headers = { "x-forwarded-for": `203.0.113.${(addresses++ % 250) + 1}` };
      const visitor = httpClient(app.url, BEHIND_TLS);
      const page = await visitor.send(form.page, { headers });
      const answer = await visitor.submit(
        form.action,
        {
          _csrf_token: csrfFrom(page.text),
          _back: form.page,
          ...form.fields,
          ...padding(10, 500),
          marker: "UNDECLARED-1",
        },
        headers,
      );
      assert.equal(answer.status, 303, `${form.action}: ${answer.status} ${answer.text.slice(0, 200)}`);
      const again = await visitor.send(answer.headers.get("location")!, { headers });
      assertNot5xx(again, `${form.page} after the refusal`);
      assert.ok(!again.text.includes("UNDECLARED-1"), `${form.page} shows no undeclared field`);
    }
  });

  test("every unsafe route of the app, sent an oversized anonymous form and JSON body with only undeclared fields, never answers 5xx and adds a bounded few KB per request", async (t) => {
    const app = target();
    const routes = routesOf(app).filter((route) => route.verbs.some((verb) => UNSAFE.has(verb)));
    assert.ok(routes.length >= 5, `the route table lists the unsafe routes: ${JSON.stringify(routes)}`);
    // Any page's token serves an anonymous visitor (it is bound to the visitor's CSRF cookie).
    const tokenPage = app.framework === "fw-b" ? "/login" : app.path("/memos/new");
    const before = app.sessionPrefix ? redisBytes(app.sessionPrefix) : 0;
    let requests = 0;
    const seen: string[] = [];
    for (const route of routes) {
      for (const verb of route.verbs.filter((v) => UNSAFE.has(v))) {
        const headers = { "x-forwarded-for": `203.0.113.${(addresses++ % 250) + 1}` };
        const visitor = httpClient(app.url, BEHIND_TLS);
        const token = csrfFrom((await visitor.send(tokenPage, { headers })).text);
        const form = new URLSearchParams({ _csrf_token: token, ...padding() }).toString();
        const json = JSON.stringify({ _csrf_token: token, ...padding() });
        for (const [type, body] of [
          ["application/x-www-form-urlencoded", form],
          ["application/json", json],
        ] as const) {
          const answer = await visitor.send(route.url, {
            method: verb,
            headers: { ...headers, "content-type": type, "x-csrf-token": token },
            body,
          });
          requests++;
          seen.push(`${verb} ${route.url} ${type.slice(12, 16)} ${answer.status}`);
          assertNot5xx(answer, `${verb} ${route.url} (${type})`, app);
          const cookies = answer.headers.getSetCookie().join("; ");
          assert.ok(cookies.length < 4096, `${verb} ${route.url}: Set-Cookie of ${cookies.length} characters`);
          assert.ok(!cookies.includes("x".repeat(100)), `${verb} ${route.url}: the extra fields are not in a cookie`);
        }
      }
    }
    t.diagnostic(seen.join("; "));
    if (app.sessionPrefix) {
      const added = redisBytes(app.sessionPrefix) - before;
      t.diagnostic(`${requests} oversized requests to ${routes.length} unsafe routes added ${added} bytes to Redis`);
      assert.ok(added <= requests * REFUSED_POST_BYTES, `${requests} requests added ${added} bytes to Redis`);
    }
  });

  test("the generated JSON API refuses an oversized body with 413 or 422 and stores nothing", async () => {
    const app = target();
    const before = app.sessionPrefix ? redisBytes(app.sessionPrefix) : 0;
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${app.url}${app.path("/gadgets")}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-proto": "https" },
        body: JSON.stringify({ name: "", ...padding() }),
      });
      const text = await response.text();
      assert.ok([413, 422].includes(response.status), `POST /gadgets: ${response.status} ${text.slice(0, 200)}`);
      assert.equal(response.headers.getSetCookie().length, 0, "no cookie, no session");
    }
    if (app.sessionPrefix) {
      const added = redisBytes(app.sessionPrefix) - before;
      assert.ok(added <= 20 * 256, `20 refused JSON posts added ${added} bytes to Redis`);
    }
  });
}
