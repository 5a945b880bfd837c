import { telemetry, traceCall } from "@fwkit/battery-kit";
import { E_MAIL_BODY_MISSING, E_MAIL_SEND_FAILED, E_SERVICES_CONFIG_INVALID } from "../errors.js";
import { consoleLogger, type ServiceLogger } from "../logger.js";
import { defaultRegistry, type SignalRegistry } from "../signals/signal.js";
import { SIGNALS, type MailSentPayload } from "../signals/names.js";
import { createMailTransport } from "./create-transport.js";
import { renderMail, type MailRenderer } from "./templates.js";
import type { MailAttachment, MailInfo, MailTransport, OutgoingMail } from "./transport.js";

/** What {@link createMailer} needs; the services plugin reads `mailUrl` and `mailFrom` from config. */
export interface MailerOptions {
  /** `smtp://user:pass@host:587`, `smtps://...:465` or `ses://eu-west-1` (or a transport, for tests). */
  readonly url: string | MailTransport;
  /** The default sender, e.g. `"Shop <shop@example.com>"`. */
  readonly from: string;
  /** Renders the app's templates; injected by the framework (Nunjucks or Pug). */
  readonly render: MailRenderer;
  /** Reports recipients refused while others were accepted (default: stderr). */
  readonly logger?: ServiceLogger;
  /** Where `mail.sent` is sent (default: the process-wide registry). */
  readonly signals?: SignalRegistry;
}

/** One mail to send. */
export interface SendMailOptions {
  readonly to: string | readonly string[];
  readonly cc?: string | readonly string[];
  readonly bcc?: string | readonly string[];
  readonly replyTo?: string;
  /** Overrides the default sender. */
  readonly from?: string;
  /** Overrides the subject template; required for a mail without a template. */
  readonly subject?: string;
  /**
   * Template name under `templates/mail/` (see {@link mailTemplateFiles}). Without one, the mail
   * is the `subject` and the `text` and/or `html` given here.
   */
  readonly template?: string;
  /** Variables for the three templates. */
  readonly context?: Readonly<Record<string, unknown>>;
  /** The plain-text body (a mail without a template; with one, it replaces the text template's part). */
  readonly text?: string;
  /** The HTML body (a mail without a template; with one, it replaces the HTML template's part). */
  readonly html?: string;
  readonly attachments?: readonly MailAttachment[];
}

/** The `template` of a mail sent without one (in `mail.sent`, metrics and the mail preview). */
const INLINE = "inline";

/** A rendered mail ready for the transport, with the name of the template it was made from. */
export interface ComposedMail extends OutgoingMail {
  readonly template: string;
}

/** The error a failed send rejects with: `E_MAIL_SEND_FAILED` plus the transport's reason. */
export interface MailSendError extends Error {
  readonly code: "E_MAIL_SEND_FAILED";
  readonly status: number;
  /** The transport's code: `EENVELOPE` (recipient refused), `ECONNECTION`, `EAUTH`, `ETIMEDOUT`, an SES error name... */
  readonly reason: string;
  /** The SMTP reply code when there was one (550, 535...). */
  readonly responseCode?: number;
}

/** Sends template mails through one transport. */
export interface Mailer {
  /** The transport built from the URL. */
  readonly transport: MailTransport;
  /**
   * Renders and sends a mail; resolves with what the server accepted, then sends `mail.sent`.
   * Rejects with a {@link MailSendError} when the server refuses or cannot be reached.
   */
  sendMail(options: SendMailOptions): Promise<MailInfo>;
  /**
   * Renders a mail without sending it: what a job carries, so a worker delivers it later with
   * {@link Mailer.deliver} (JSON-safe unless it has attachments of bytes or streams).
   */
  compose(options: SendMailOptions): Promise<ComposedMail>;
  /** Sends a mail {@link Mailer.compose} rendered, then sends `mail.sent`; rejects as `sendMail` does. */
  deliver(mail: ComposedMail): Promise<MailInfo>;
  /** Checks the connection and credentials. */
  verify(): Promise<void>;
  /** Closes pooled connections. */
  close(): void;
}

function list(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" ? [value] : [...value];
}

function sendError(to: readonly string[], error: unknown): MailSendError {
  const cause = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    responseCode?: unknown;
    response?: unknown;
  };
  const reason = typeof cause.code === "string" ? cause.code : typeof cause.name === "string" ? cause.name : "UNKNOWN";
  const detail = typeof cause.response === "string" ? cause.response : String(cause.message ?? error);
  const wrapped = new E_MAIL_SEND_FAILED(to.join(", "), reason, detail);
  const extra: { reason: string; responseCode?: number; cause: unknown } = { reason, cause: error };
  if (typeof cause.responseCode === "number") extra.responseCode = cause.responseCode;
  return Object.assign(wrapped, extra) as MailSendError;
}

/** Builds a mailer from a transport URL, a default sender and the framework's template renderer. */
export function createMailer(options: MailerOptions): Mailer {
  if (typeof options.from !== "string" || options.from.trim() === "") {
    throw new E_SERVICES_CONFIG_INVALID("mailFrom", 'the default sender, e.g. "Shop <shop@example.com>"');
  }
  const transport = typeof options.url === "string" ? createMailTransport(options.url) : options.url;
  const logger = options.logger ?? consoleLogger;
  const signals = options.signals ?? defaultRegistry();

  const compose = async (mail: SendMailOptions): Promise<ComposedMail> => {
    const rendered = await bodyOf(mail);
    return {
      template: mail.template ?? INLINE,
      from: mail.from ?? options.from,
      to: list(mail.to) ?? [],
      ...(mail.cc === undefined ? {} : { cc: list(mail.cc) }),
      ...(mail.bcc === undefined ? {} : { bcc: list(mail.bcc) }),
      ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
      ...rendered,
      ...(mail.attachments === undefined ? {} : { attachments: mail.attachments }),
    };
  };
  const bodyOf = async (mail: SendMailOptions): Promise<{ subject: string; text?: string; html?: string }> => {
    const given = {
      ...(mail.text === undefined ? {} : { text: mail.text }),
      ...(mail.html === undefined ? {} : { html: mail.html }),
    };
    if (mail.template !== undefined)
      return { ...(await renderMail(options.render, mail.template, mail.context ?? {}, mail.subject)), ...given };
    if (mail.text === undefined && mail.html === undefined)
      throw new E_MAIL_BODY_MISSING("give `text` or `html`, or a `template` (templates/mail/<name>.txt)");
    // A subject is one header line, as with a template.
    const subject = (mail.subject ?? "").replace(/\s+/g, " ").trim();
    if (subject === "") throw new E_MAIL_BODY_MISSING("give its `subject`");
    return { subject, ...given };
  };
  const deliver = async (mail: ComposedMail): Promise<MailInfo> => {
    const { template, ...outgoing } = mail;
    let info: MailInfo;
    try {
      // A traced operation: a span in the request's trace and the mails-sent metric, when observed.
      info = await traceCall(
        telemetry.mail,
        () => ({ template }),
        () => transport.send(outgoing),
      );
    } catch (error) {
      throw sendError(mail.to, error);
    }
    if (info.rejected.length > 0) {
      logger.warn(
        { template, rejected: info.rejected, accepted: info.accepted },
        "mail: the server refused some recipients and accepted the others",
      );
    }
    const payload: MailSentPayload = { to: [...mail.to], subject: mail.subject, template, messageId: info.messageId };
    await signals.get<MailSentPayload>(SIGNALS.mailSent).send(payload);
    return info;
  };

  return {
    transport,
    compose,
    deliver,
    sendMail: async (mail) => deliver(await compose(mail)),
    verify: () => transport.verify(),
    close: () => transport.close(),
  };
}
