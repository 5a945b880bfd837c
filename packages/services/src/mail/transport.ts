import type { Readable } from "node:stream";

/** A mail ready for a transport: addresses, subject, bodies and attachments. */
export interface OutgoingMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly cc?: readonly string[];
  readonly bcc?: readonly string[];
  readonly replyTo?: string;
  readonly subject: string;
  readonly text?: string;
  readonly html?: string;
  readonly attachments?: readonly MailAttachment[];
}

/**
 * A file attached to a mail: its content, or the path of a local file. URLs are refused (the
 * transports run with nodemailer's `disableUrlAccess`), so a mail never fetches from the network.
 */
export type MailAttachment =
  | {
      readonly filename: string;
      readonly content: string | Uint8Array | Readable;
      readonly contentType?: string;
      /** Content-ID, to show the attachment inline in HTML (`<img src="cid:...">`). */
      readonly cid?: string;
    }
  | {
      readonly filename?: string;
      readonly path: string;
      readonly contentType?: string;
      readonly cid?: string;
    };

/** What a transport reports after the server accepted a mail. */
export interface MailInfo {
  /** The Message-ID (for SES, derived from the API's id). */
  readonly messageId: string;
  /** Recipients the server accepted. */
  readonly accepted: readonly string[];
  /** Recipients the server refused while accepting others. */
  readonly rejected: readonly string[];
  /** The server's last reply. */
  readonly response: string;
}

/** One way of delivering mail (SMTP, Amazon SES...), built from the `mailUrl`. */
export interface MailTransport {
  /** Which implementation this is, for logs and tests. */
  readonly kind: string;
  /** Hands the mail over; rejects with the transport's own error (its `code` says why). */
  send(mail: OutgoingMail): Promise<MailInfo>;
  /** Checks the connection and credentials without sending. */
  verify(): Promise<void>;
  /** Closes pooled connections. */
  close(): void;
}

/** Recipient lists from nodemailer (strings or `{ address }` objects) as plain addresses. */
export function addresses(list: ReadonlyArray<string | { address: string }> | undefined): string[] {
  return (list ?? []).map((entry) => (typeof entry === "string" ? entry : entry.address));
}

/** The options every nodemailer transport of this package gets. */
export const SAFE_NODEMAILER_OPTIONS = { disableUrlAccess: true } as const;

/** The outgoing mail as nodemailer's message options. */
export function toNodemailer(mail: OutgoingMail): Record<string, unknown> {
  const message: Record<string, unknown> = { from: mail.from, to: [...mail.to], subject: mail.subject };
  if (mail.cc) message["cc"] = [...mail.cc];
  if (mail.bcc) message["bcc"] = [...mail.bcc];
  if (mail.replyTo) message["replyTo"] = mail.replyTo;
  if (mail.text !== undefined) message["text"] = mail.text;
  if (mail.html !== undefined) message["html"] = mail.html;
  if (mail.attachments) message["attachments"] = mail.attachments.map((attachment) => ({ ...attachment }));
  return message;
}
