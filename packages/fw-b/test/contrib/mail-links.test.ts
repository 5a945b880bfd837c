// Links in contrib mails come from the configured public address (baseUrl / BASE_URL), never from
// the request's Host or X-Forwarded-Host; production refuses to start without BASE_URL, without a
// mail transport (MAIL_URL) or with a weak SECRET_KEY.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { csrfFrom } from "@fwkit/test-servers";
import { createUser, linkIn, startContribApp, type ContribApp } from "./fixture.js";

// Made here, never written down: a key spelled out in this repository is refused in production.
const STRONG = crypto.randomUUID();
const EVIL = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

/** Sends a request with headers fetch will not send (Host); answers status, Set-Cookie and body. */
function raw(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; cookies: string[]; text: string }>((resolve, reject) => {
    const target = new URL(path, url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? "GET",
        headers: options.headers ?? {},
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            cookies: (res.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]!),
            text,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Asks for a reset mail for `email` with every header naming evil.example. */
async function lostPassword(app: ContribApp, email: string): Promise<void> {
  const page = await raw(app.url, "/lost-password", { headers: EVIL });
  assert.equal(page.status, 200, page.text.slice(0, 300));
  const body = new URLSearchParams({ _csrf_token: csrfFrom(page.text), email }).toString();
  const posted = await raw(app.url, "/lost-password", {
    method: "POST",
    headers: {
      ...EVIL,
      cookie: page.cookies.join("; "),
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(Buffer.byteLength(body)),
    },
    body,
  });
  assert.equal(posted.status, 303, posted.text.slice(0, 300));
}

describe("mailed links and the host a client names", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp({ contrib: { auth: true }, config: { trustProxy: 1 } });
  });
  after(() => app.close());

  test("without baseUrl (development, tests) the reset link is the server's own address, not Host or X-Forwarded-Host", async () => {
    await createUser(app, { username: "hostless", password: "hostless-pass-1" });
    await lostPassword(app, "hostless@example.test");
    const link = linkIn((await app.nextMail()).text, "/reset-password/");
    assert.doesNotMatch(link, /evil\.example/);
    assert.ok(link.startsWith(`${app.url}/reset-password/`), link);
  });
});

describe("with baseUrl set, as production has it", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp({
      contrib: { auth: true },
      config: { trustProxy: 1, baseUrl: "https://tea.example.com/" },
    });
  });
  after(() => app.close());

  test("a Host and X-Forwarded-Host of evil.example mail a link to the configured host", async () => {
    await createUser(app, { username: "based", password: "based-pass-1" });
    await lostPassword(app, "based@example.test");
    const link = linkIn((await app.nextMail()).text, "/reset-password/");
    assert.match(link, /^https:\/\/tea\.example\.com\/reset-password\/[^/\s]+$/);
  });
});

describe("production start-up refusals", () => {
  const production = { env: "production", secretKey: STRONG, baseUrl: "https://tea.example.com" };

  test("contrib auth without BASE_URL: E_BASE_URL_REQUIRED naming BASE_URL", async () => {
    const { baseUrl: _unset, ...config } = production;
    await assert.rejects(startContribApp({ contrib: { auth: true }, config }), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_BASE_URL_REQUIRED");
      assert.match(error.message, /BASE_URL/);
      assert.match(error.message, /contrib\.auth/);
      return true;
    });
  });

  test("contrib auth or contact without MAIL_URL: E_MAIL_NOT_CONFIGURED naming MAIL_URL", async () => {
    for (const contrib of [{ auth: true }, { contact: { recipients: ["team@example.test"] } }]) {
      await assert.rejects(
        startContribApp({ contrib, config: { ...production, mailUrl: "" } }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "E_MAIL_NOT_CONFIGURED", JSON.stringify(contrib));
          assert.match(error.message, /MAIL_URL/);
          return true;
        },
      );
    }
  });

  test("a placeholder or short SECRET_KEY: E_WEAK_SECRET_KEY naming SECRET_KEY", async () => {
    for (const secretKey of ["replace-with-a-long-random-string", "x"]) {
      await assert.rejects(
        startContribApp({ contrib: { auth: true }, config: { ...production, secretKey } }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "E_WEAK_SECRET_KEY");
          assert.match(error.message, /SECRET_KEY/);
          return true;
        },
      );
    }
  });

  test("a malformed baseUrl is E_BASE_URL_INVALID in any environment", async () => {
    await assert.rejects(startContribApp({ contrib: { auth: true }, config: { baseUrl: "tea.example.com" } }), {
      code: "E_BASE_URL_INVALID",
    });
  });
});
