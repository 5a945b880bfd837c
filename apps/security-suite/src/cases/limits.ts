/**
 * Limits against the production fw-b target (Redis sessions and counters): a burst of parallel
 * logins (29 wrong passwords and the right one last) passes no more attempts than the per-account
 * limit and logs nobody in once over it; the current password on the account pages cannot be
 * guessed without limit; /lost-password and /contact answer 429 with Retry-After per address typed
 * and per client. Each case speaks from an address of its own (X-Forwarded-For through the one
 * trusted proxy hop the target is configured with), so the per-client counters of other cases stay untouched.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { httpClient, csrfFrom, type HttpAnswer, type HttpClient } from "@fwkit/test-servers";
import { BEHIND_TLS } from "../behind-tls.js";
import type { SuiteUser, Target } from "../target.js";

/** The users these cases need of their own (their failed-login counters fill up). */
export const LIMIT_USERS: readonly SuiteUser[] = Object.freeze([
  { username: "burst", email: "burst@example.test", password: "correct-horse-5" },
  { username: "stolen", email: "stolen@example.test", password: "correct-horse-6" },
]);

/** A client whose requests come from `address` (the trusted proxy's X-Forwarded-For). */
function from(
  app: Target,
  address: string,
): {
  browser: HttpClient;
  get(path: string): Promise<HttpAnswer>;
  post(path: string, fields: Record<string, string>): Promise<HttpAnswer>;
} {
  const browser = httpClient(app.url, BEHIND_TLS);
  const headers = { "x-forwarded-for": address };
  return {
    browser,
    get: (path) => browser.send(path, { headers }),
    post: (path, fields) => browser.submit(path, fields, headers),
  };
}

/** The answer of a form posted after loading its page (for its CSRF token). */
async function submit(
  visitor: ReturnType<typeof from>,
  path: string,
  fields: Record<string, string>,
): Promise<HttpAnswer> {
  const page = await visitor.get(path);
  assert.equal(page.status, 200, `${path}: ${page.text.slice(0, 200)}`);
  return visitor.post(path, { _csrf_token: csrfFrom(page.text), ...fields });
}

function assertLimited(answer: HttpAnswer, what: string): void {
  assert.equal(answer.status, 429, `${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
  const retry = Number(answer.headers.get("retry-after"));
  assert.ok(Number.isInteger(retry) && retry >= 1, `${what}: Retry-After in seconds (${retry})`);
}

const outcome = (answer: HttpAnswer) =>
  answer.status === 303 ? `303->${answer.headers.get("location")}` : String(answer.status);

/** Registers the limit cases against the fw-b target started with {@link LIMIT_USERS}. */
export function limitCases(target: () => Target): void {
  test("a burst of 30 parallel logins (the right password last) reaches the password check at most 5 times and logs nobody in over the limit", async () => {
    const app = target();
    const attacker = from(app, "198.51.100.10");
    const page = await attacker.get("/login");
    const token = csrfFrom(page.text);
    const user = LIMIT_USERS[0]!;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        attacker.post("/login", {
          _csrf_token: token,
          identifier: user.username,
          password: i === 29 ? user.password : `wrong-${i}`,
          next: "/",
        }),
      ),
    );
    const counts: Record<string, number> = {};
    for (const answer of answers) counts[outcome(answer)] = (counts[outcome(answer)] ?? 0) + 1;
    assert.equal(counts["429"], 25, `no more than the limit of 5 were checked: ${JSON.stringify(counts)}`);
    const loggedIn = counts["303->/"] ?? 0;
    assert.ok(loggedIn <= 1, JSON.stringify(counts));
    // Unless the right password happened to be among the first five, it was refused with the rest.
    if (loggedIn === 0) assert.equal(answers[29]!.status, 429, "the right password sent last is refused");
    const later = await submit(from(app, "198.51.100.11"), "/login", {
      identifier: user.email,
      password: user.password,
      next: "/",
    });
    if (loggedIn === 0) assertLimited(later, "the right password after the burst, from another address");
  });

  test("a stolen session guessing the current password on /account/password and /account/email gets 429 after 5 tries, even with the right one", async () => {
    const app = target();
    const user = LIMIT_USERS[1]!;
    const thief = from(app, "198.51.100.20");
    const login = await submit(thief, "/login", { identifier: user.username, password: user.password, next: "/" });
    assert.equal(login.headers.get("location"), "/", `logged in: ${outcome(login)}`);
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        outcome(
          await submit(thief, "/account/password", {
            current_password: `guess-${i}`,
            password: "taken-over-pass-1",
            password_confirm: "taken-over-pass-1",
          }),
        ),
      );
    }
    statuses.push(
      outcome(await submit(thief, "/account/email", { email: "thief@example.test", current_password: "guess-email" })),
    );
    assert.ok(
      statuses.every((status) => status !== "429"),
      `five guesses are answered: ${statuses}`,
    );
    const right = await submit(thief, "/account/password", {
      current_password: user.password,
      password: "taken-over-pass-1",
      password_confirm: "taken-over-pass-1",
    });
    assertLimited(right, "the right current password after five wrong ones");
  });

  test("/lost-password: 3 requests per address typed, then 429; 10 per client whatever the addresses", async () => {
    const app = target();
    const one = from(app, "198.51.100.30");
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await submit(one, "/lost-password", { email: "flood-me@example.test" })).status,
        303,
        `request ${i}`,
      );
    assertLimited(
      await submit(from(app, "198.51.100.31"), "/lost-password", { email: "FLOOD-ME@example.test" }),
      "a 4th request for one address, from another client",
    );
    const sprayer = from(app, "198.51.100.32");
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await submit(sprayer, "/lost-password", { email: `spray-${i}@example.test` })).status);
    assert.deepEqual(statuses, [...Array(10).fill(303), 429]);
  });

  test("/contact: 5 anonymous messages per client, then 429", async () => {
    const app = target();
    const spammer = from(app, "198.51.100.40");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await submit(spammer, "/contact", {
            name: "Spam",
            email: `spam${i}@example.test`,
            subject: "Offer",
            message: "Buy something today, please.",
          })
        ).status,
      );
    }
    assert.deepEqual(statuses, [303, 303, 303, 303, 303, 429]);
  });
}
