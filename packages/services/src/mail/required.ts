/**
 * In production a mail that cannot be sent is lost without a word to the visitor (a signup that
 * says "check your mail"), so whatever mails there refuses to start without a transport.
 */
import { E_MAIL_NOT_CONFIGURED } from "../errors.js";

/**
 * In production, throws `E_MAIL_NOT_CONFIGURED` naming `MAIL_URL` (and `MAIL_FROM`) when either is
 * unset; `needs` says what sends mail (`contrib.auth (signup and password-reset mails)`).
 * Elsewhere it does nothing: development may run without a mailer.
 */
export function requireMailer(
  config: { readonly env?: unknown; readonly mailUrl?: unknown; readonly mailFrom?: unknown },
  needs: string,
): void {
  if (config.env !== "production") return;
  const missing = [
    ...(typeof config.mailUrl === "string" && config.mailUrl ? [] : ["MAIL_URL (mailUrl)"]),
    ...(typeof config.mailFrom === "string" && config.mailFrom ? [] : ["MAIL_FROM (mailFrom)"]),
  ];
  if (missing.length > 0) throw new E_MAIL_NOT_CONFIGURED(needs, missing.join(" and "));
}
