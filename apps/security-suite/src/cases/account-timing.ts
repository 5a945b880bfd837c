/**
 * Timing that names accounts: `/lost-password` answers a known and an unknown address after the
 * same work (the lookup, the token and the mail run after the answer has left), measured through
 * a real socket with the same statistics as the login-timing case (the ratio of the medians).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { csrfFrom, httpClient } from "@fwkit/test-servers";
import { BEHIND_TLS } from "../behind-tls.js";
import type { SuiteUser, Target } from "../target.js";

/** Samples per side: enough that one slow answer on a busy machine does not move the median. */
const SAMPLES = 16;

/**
 * The users these cases ask resets for, each at most twice (the per-address limit is 3); the last
 * one is the warm-up's.
 */
export const TIMING_USERS: readonly SuiteUser[] = Object.freeze(
  Array.from({ length: SAMPLES / 2 + 1 }, (_, i) => ({
    username: `lost${i}`,
    email: `lost${i}@example.test`,
    password: `lost-pass-${i}-horse`,
  })),
);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Registers the timing cases against an fw-b app with contrib auth started with {@link TIMING_USERS}. */
export function accountTimingCases(target: () => Target): void {
  test("lost-password timing: a known and an unknown address are answered after the same work", async (t) => {
    const app = target();
    let sample = 0;
    const timed = async (email: string) => {
      // Each sample from an address of its own (through the trusted proxy hop): the per-client limit is 10.
      const headers = { "x-forwarded-for": `203.0.113.${100 + sample++}` };
      const browser = httpClient(app.url, BEHIND_TLS);
      const page = await browser.send("/lost-password", { headers });
      assert.equal(page.status, 200, page.text.slice(0, 200));
      const start = process.hrtime.bigint();
      const res = await browser.submit("/lost-password", { _csrf_token: csrfFrom(page.text), email }, headers);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      assert.equal(res.status, 303, `the form is accepted: ${res.status} ${res.text.slice(0, 200)}`);
      return ms;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    const askKnown = async (email: string) => {
      const ms = await timed(email);
      // The reset mail is sent before the next sample, so no sample pays for another's work.
      for (;;) if ((await app.mail!.waitForMail()).to.includes(email)) break;
      return ms;
    };
    // One of each first, not counted: the first form post of a process pays for code loaded on first use.
    await askKnown(TIMING_USERS[SAMPLES / 2]!.email);
    await timed(`nobody-warm-up-${Date.now()}@example.test`);
    for (let i = 0; i < SAMPLES; i++) {
      const email = TIMING_USERS[i % (SAMPLES / 2)]!.email;
      const other = `nobody-${i}-${Date.now()}@example.test`;
      // Alternating which side goes first, so neither always follows the other's after-answer work.
      if (i % 2 === 0) {
        known.push(await askKnown(email));
        unknown.push(await timed(other));
      } else {
        unknown.push(await timed(other));
        known.push(await askKnown(email));
      }
    }
    const [k, u] = [median(known), median(unknown)];
    t.diagnostic(`median known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`);
    // The same bound as the login-timing case; the bug was ~3x (the lookup, token and mail before the answer).
    assert.ok(Math.max(k, u) / Math.min(k, u) < 1.6, `median known ${k.toFixed(1)} ms vs unknown ${u.toFixed(1)} ms`);
  });
}
