import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "koa";
import { escapeHtml } from "@fwkit/koa-host/plugin";
import { claimOnce } from "@fwkit/security/plugin";
import type svgCaptchaModule from "svg-captcha";
import { E_CONTRIB_SESSION_MISSING } from "../../errors.js";
import type { CaptchaContribOptions } from "../config.js";
import { CONTRIB_DRIVERS, requireDriver } from "../drivers.js";
import type { CaptchaVerifier } from "./verifier.js";

// svg-captcha (an optional peer dependency of fw-b) reads and parses its font when loaded: it is
// loaded at the first challenge drawn, so an app without the captcha never pays for it. Start-up
// only checks that it is installed (checkContribDrivers); missing, it is E_CONTRIB_DRIVER_MISSING.
const svgCaptcha = () =>
  requireDriver<typeof svgCaptchaModule>(CONTRIB_DRIVERS.captcha.name, CONTRIB_DRIVERS.captcha.user);

/** The session key holding the pending challenge (a keyed hash of the answer, never the answer). */
export const CAPTCHA_SESSION_KEY = "fwbCaptcha";

/** The form field the answer is posted in. */
export const CAPTCHA_FIELD = "captcha";

/** How long an answer stays valid, in milliseconds. */
const MAX_AGE_MS = 30 * 60 * 1000;

interface Pending {
  readonly hash: string;
  readonly salt: string;
  readonly at: number;
}

function sessionOf(ctx: Context): Record<string, unknown> | undefined {
  const session = (ctx as { session?: Record<string, unknown> | null }).session;
  return session && typeof session === "object" ? session : undefined;
}

function digest(secret: string, salt: string, answer: string): string {
  return createHmac("sha256", secret).update(`${salt}:${answer.trim().toLowerCase()}`).digest("base64url");
}

/**
 * The built-in captcha: svg-captcha draws a distorted text inline in the form; the session keeps a
 * salted HMAC of the answer (cookie sessions are readable by the client), valid 30 minutes and
 * for one try. A right answer is also claimed once on the security battery's counters: a signed
 * cookie session still holding the challenge cannot be replayed, however often or in parallel.
 * `testMode` writes the answer into the page and `onChallenge` receives it, for tests.
 */
export function svgCaptchaVerifier(secret: string, options: CaptchaContribOptions = {}): CaptchaVerifier {
  const size = options.size ?? 5;
  return {
    name: "svg-captcha",
    challenge(ctx) {
      const session = sessionOf(ctx);
      if (!session) throw new E_CONTRIB_SESSION_MISSING("The captcha");
      const made = svgCaptcha().create({ size, noise: 2, ignoreChars: "0oO1ilI", color: false, background: "#ffffff" });
      const salt = randomBytes(12).toString("base64url");
      session[CAPTCHA_SESSION_KEY] = { hash: digest(secret, salt, made.text), salt, at: Date.now() } satisfies Pending;
      options.onChallenge?.(made.text);
      const test = options.testMode ? ` data-test-answer="${escapeHtml(made.text)}"` : "";
      return `<div class="captcha"${test}><span class="captcha-image" role="img" aria-label="captcha">${made.data}</span></div>`;
    },
    async verify(ctx, body) {
      const session = sessionOf(ctx);
      const pending = session?.[CAPTCHA_SESSION_KEY] as Pending | undefined;
      if (session) delete session[CAPTCHA_SESSION_KEY];
      const answer = body[CAPTCHA_FIELD];
      if (
        !pending ||
        typeof pending.hash !== "string" ||
        typeof pending.salt !== "string" ||
        typeof answer !== "string"
      )
        return false;
      if (answer.length === 0 || answer.length > 32 || Date.now() - Number(pending.at) > MAX_AGE_MS) return false;
      const expected = Buffer.from(pending.hash);
      const given = Buffer.from(digest(secret, pending.salt, answer));
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
      return claimOnce(ctx, `captcha:${pending.salt}`, MAX_AGE_MS / 1000);
    },
  };
}
