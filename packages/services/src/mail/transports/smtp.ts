import type nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport/index.js";
import { requireDriver } from "../../drivers.js";
import { E_SERVICE_URL_INVALID } from "../../errors.js";
import { redactUrl } from "../../urls.js";
import {
  addresses,
  SAFE_NODEMAILER_OPTIONS,
  toNodemailer,
  type MailInfo,
  type MailTransport,
  type OutgoingMail,
} from "../transport.js";

const FLAGS = ["pool", "requireTLS", "ignoreTLS", "rejectUnauthorized"] as const;

/** SMTP options read from `smtp://user:pass@host:port?flag=true` (exported for tests). */
export function smtpOptions(url: URL): SMTPTransport.Options {
  const secure = url.protocol === "smtps:";
  if (!url.hostname) throw new E_SERVICE_URL_INVALID("mailUrl", redactUrl(url.href), "it names no host");
  const options: SMTPTransport.Options & { pool?: boolean } = {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    ...SAFE_NODEMAILER_OPTIONS,
  };
  if (url.username) {
    options.auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  }
  for (const [key, value] of url.searchParams) {
    if (!(FLAGS as readonly string[]).includes(key) || (value !== "true" && value !== "false")) {
      throw new E_SERVICE_URL_INVALID(
        "mailUrl",
        redactUrl(url.href),
        `the query "${key}=${value}" is not understood (known: ${FLAGS.map((f) => `${f}=true|false`).join(", ")})`,
      );
    }
    const on = value === "true";
    if (key === "rejectUnauthorized") options.tls = { rejectUnauthorized: on };
    else options[key as "pool" | "requireTLS" | "ignoreTLS"] = on;
  }
  return options;
}

/**
 * Mail over SMTP (`smtp://`, STARTTLS when offered) or SMTP over TLS (`smtps://`). nodemailer is
 * loaded when the first transport is built (at start-up, when `mailUrl` is configured).
 */
export class SmtpTransport implements MailTransport {
  readonly kind = "smtp";
  readonly #transporter: nodemailer.Transporter<SMTPTransport.SentMessageInfo>;

  constructor(url: URL) {
    const options = smtpOptions(url);
    this.#transporter = requireDriver<typeof nodemailer>("nodemailer", "SMTP mail transport").createTransport(options);
  }

  async send(mail: OutgoingMail): Promise<MailInfo> {
    const info = await this.#transporter.sendMail(toNodemailer(mail));
    return {
      messageId: info.messageId,
      accepted: addresses(info.accepted),
      rejected: addresses(info.rejected),
      response: info.response,
    };
  }

  async verify(): Promise<void> {
    await this.#transporter.verify();
  }

  close(): void {
    this.#transporter.close();
  }
}
