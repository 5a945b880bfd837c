import type { Context } from "koa";

/**
 * A captcha: the built-in SVG one, or a hosted service's (hCaptcha, reCAPTCHA, Turnstile...)
 * given as `contrib.captcha.verifier`. Forms call `challenge` when they render and `verify` when
 * they are posted.
 */
export interface CaptchaVerifier {
  /** A short name for logs. */
  readonly name: string;
  /** The HTML the form shows (an image and a field, or a hosted widget); trusted markup. */
  challenge(ctx: Context): string | Promise<string>;
  /** True when the posted form answers the challenge; a challenge is used up either way. */
  verify(ctx: Context, body: Readonly<Record<string, unknown>>): boolean | Promise<boolean>;
}
