import { randomUUID } from "node:crypto";
import { E_SERVICE_URL_INVALID } from "../../errors.js";
import type { MailInfo, MailTransport, OutgoingMail } from "../transport.js";
import { mailLinks } from "./log.js";

/** A mail the memory transport kept: what was handed to it, with its id, time and links. */
export interface SentMail {
  readonly messageId: string;
  readonly at: Date;
  readonly from: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
  readonly replyTo?: string;
  readonly subject: string;
  readonly text?: string;
  readonly html?: string;
  /** The attachments' file names. */
  readonly attachments: readonly string[];
  /** Every link of the mail, from its text and HTML (a verification or reset link). */
  readonly links: readonly string[];
}

/**
 * The test environment's mail transport (`mailUrl: "memory:"`, its default): keeps every mail in
 * the process, oldest first, and sends and prints nothing, so a test reads what the app sent
 * (`client.mail`) and no real inbox gets a test's mail.
 */
export class MemoryTransport implements MailTransport {
  readonly kind = "memory";
  readonly #sent: SentMail[] = [];

  constructor(url: URL) {
    if ([...url.searchParams.keys()].length > 0 || (url.pathname !== "" && url.pathname !== "//")) {
      throw new E_SERVICE_URL_INVALID(
        "mailUrl",
        url.href,
        'the memory transport takes no path or options: write "memory:"',
      );
    }
  }

  async send(mail: OutgoingMail): Promise<MailInfo> {
    const messageId = `<${randomUUID()}@memory.invalid>`;
    this.#sent.push({
      messageId,
      at: new Date(),
      from: mail.from,
      to: [...mail.to],
      cc: [...(mail.cc ?? [])],
      bcc: [...(mail.bcc ?? [])],
      ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
      subject: mail.subject,
      ...(mail.text === undefined ? {} : { text: mail.text }),
      ...(mail.html === undefined ? {} : { html: mail.html }),
      attachments: (mail.attachments ?? []).map(
        (attachment) => attachment.filename ?? ("path" in attachment ? attachment.path : "attachment"),
      ),
      links: mailLinks(mail),
    });
    return {
      messageId,
      accepted: [...mail.to, ...(mail.cc ?? []), ...(mail.bcc ?? [])],
      rejected: [],
      response: "250 kept in memory",
    };
  }

  /** The mails sent so far, oldest first. */
  sent(): readonly SentMail[] {
    return [...this.#sent];
  }

  /** Forgets the mails sent so far. */
  clear(): void {
    this.#sent.length = 0;
  }

  async verify(): Promise<void> {}

  close(): void {}
}
