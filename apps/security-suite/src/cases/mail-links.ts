/**
 * Poisoned reset links: a client that names another host (Host, X-Forwarded-Host) on
 * /lost-password must not get the victim's reset token mailed inside a link to that host. Every
 * absolute link in a mail comes from the configured public address (BASE_URL), and production
 * refuses to start without one (an fw-b app with contrib auth).
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { test } from "node:test";
import { csrfFrom } from "@fwkit/test-servers";
import { BASE_URL, type SuiteUser, type Target } from "../target.js";

/** One answer of {@link raw}. */
interface RawAnswer {
  readonly status: number;
  readonly cookies: readonly string[];
  readonly text: string;
}

/** A request with headers fetch will not send as given (Host), through node:http. */
function raw(
  app: Target,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: options.method ?? "GET", headers: options.headers ?? {} },
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

/** Asks for a password reset of `email` with `headers` on both the form page and the POST. */
async function lostPassword(app: Target, email: string, headers: Record<string, string>): Promise<void> {
  // The TLS-terminating proxy's header, so the production app sends (and takes) its Secure cookies.
  const all = { "x-forwarded-proto": "https", ...headers };
  const page = await raw(app, "/lost-password", { headers: all });
  assert.equal(page.status, 200, page.text.slice(0, 300));
  const body = new URLSearchParams({ _csrf_token: csrfFrom(page.text), email }).toString();
  const posted = await raw(app, "/lost-password", {
    method: "POST",
    headers: {
      ...all,
      cookie: page.cookies.join("; "),
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(Buffer.byteLength(body)),
    },
    body,
  });
  assert.equal(posted.status, 303, `the form is accepted: ${posted.status} ${posted.text.slice(0, 300)}`);
}

/** The reset link of the next mail to `email` (other mails are skipped). */
async function resetLinkTo(app: Target, email: string): Promise<string> {
  for (;;) {
    const mail = await app.mail!.waitForMail();
    if (!mail.to.includes(email)) continue;
    const match = /https?:\/\/\S*\/reset-password\/\S+/.exec(mail.parsed.text ?? "");
    assert.ok(match, `the mail to ${email} has a reset link:\n${mail.parsed.text}`);
    return match[0];
  }
}

/** The victims whose resets these cases ask for, one per case (the per-address limit is 3). */
export const MAIL_LINK_USERS: readonly SuiteUser[] = Object.freeze([
  { username: "hostvictim", email: "host-victim@example.test", password: "victim-pass-1-horse" },
  { username: "fwdvictim", email: "forwarded-victim@example.test", password: "victim-pass-2-horse" },
]);

/** Registers the mailed-link cases against an fw-b app with contrib auth, a mailer and BASE_URL. */
export function mailLinkCases(
  target: () => Target,
  users: { readonly hostVictim: string; readonly forwardedVictim: string },
): void {
  test("Host: evil.example on /lost-password mails a link to the configured host, not to evil.example", async () => {
    const app = target();
    await lostPassword(app, users.hostVictim, { host: "evil.example" });
    const link = await resetLinkTo(app, users.hostVictim);
    assert.doesNotMatch(link, /evil\.example/);
    assert.ok(link.startsWith(`${BASE_URL}/reset-password/`), link);
  });

  test("X-Forwarded-Host: evil.example (believed from a trusted proxy for other things) does not reach the link either", async () => {
    const app = target();
    await lostPassword(app, users.forwardedVictim, { "x-forwarded-host": "evil.example" });
    const link = await resetLinkTo(app, users.forwardedVictim);
    assert.doesNotMatch(link, /evil\.example/);
    assert.ok(link.startsWith(`${BASE_URL}/reset-password/`), link);
  });
}
