// The failed-login counter is the account's, so
// alternating its username, its email, upper case and spaces gains no tries; in memory and with
// the counters in Redis (two app instances sharing them).
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { requireServer, serverSkip, serverUrls } from "@fwkit/test-servers";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

async function tryLogin(
  app: ContribApp,
  identifier: string,
  password: string,
): Promise<{ status: number; location: string | null; page: string }> {
  const browser = httpClient(app.url);
  const form = (await browser.page("/login")).text;
  const res = await browser.form("/login", { _csrf_token: csrfFrom(form), identifier, password });
  const page = res.status === 303 ? (await browser.page(res.headers.get("location")!)).text : await res.text();
  return { status: res.status, location: res.headers.get("location"), page };
}

const SPELLINGS = ["kim", "KIM@example.test", " Kim ", "kim@EXAMPLE.test"];

async function assertSharedCounter(first: ContribApp, second: ContribApp): Promise<void> {
  for (const [i, name] of SPELLINGS.entries()) {
    const res = await tryLogin(i % 2 === 0 ? first : second, name, "wrong-password-1");
    assert.equal(res.location, "/login", `failure ${i + 1} (${JSON.stringify(name)}) is an ordinary wrong password`);
  }
  const limited = await tryLogin(first, "kim", "kim-password-1");
  assert.equal(
    limited.status,
    429,
    "the fifth try, by any of the account's names, is over the limit of 4 even with the right password",
  );
  assert.equal((await tryLogin(second, "KIM@example.test", "kim-password-1")).status, 429);
}

describe("contrib login: one failed-login counter per account", () => {
  const apps: ContribApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  test("in memory, alternating username, email, case and spaces shares the account's limit", async () => {
    const app = await startContribApp({ config: { loginLimitAccount: 4, loginLimitAddress: 100 } });
    apps.push(app);
    await createUser(app, { username: "kim", password: "kim-password-1" });
    await assertSharedCounter(app, app);
  });

  describe("with the counters in Redis", serverSkip, () => {
    // A prefix of this run; the counters expire with their 60-second window.
    const prefix = `fwb_login_throttle_${process.pid}_${Date.now().toString(36)}:`;

    test("two app instances on one Redis count the account's failures together, whatever name is typed", async () => {
      await requireServer("redis");
      const config = {
        loginLimitAccount: 4,
        loginLimitAddress: 100,
        loginLimitWindow: 60,
        loginLimitUrl: `${serverUrls.redis}?prefix=${encodeURIComponent(prefix)}`,
      };
      const first = await startContribApp({ config });
      apps.push(first);
      // The second instance shares the first one's database file, as two processes of one app would.
      const second = await startContribApp({ config: { ...config, dbUrl: `sqlite:${first.root}/data/test.db` } });
      apps.push(second);
      await createUser(first, { username: "kim", password: "kim-password-1" });
      await assertSharedCounter(first, second);
    });
  });
});
