import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E_SERVICE_URL_INVALID } from "../../errors.js";
import type { MailInfo, MailTransport, OutgoingMail } from "../transport.js";

/** How many caught mails the log transport keeps for the mail preview page (`/_mail`). */
export const CAUGHT_MAILS_KEPT = 20;

/** A mail the log transport caught, as the mail preview page lists it. */
export interface CaughtMail {
  readonly messageId: string;
  readonly at: Date;
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text?: string;
  readonly html?: string;
  /** Every link of the mail (see {@link mailLinks}). */
  readonly links: readonly string[];
}

/** Where the log transport writes; standard output by default. */
export type MailLogWriter = (text: string) => void;

/** What the log transport takes besides its URL and writer. */
export interface LogTransportOptions {
  /**
   * A folder the caught mails are kept in, one JSON file each (the newest {@link CAUGHT_MAILS_KEPT}),
   * so every process of the app (the web process, its job workers) and the next start share them.
   * The services battery uses `.fwkit/mail` in the app folder in development; without it they
   * stay in this process's memory.
   */
  readonly dir?: string;
}

/** Orders the mails one process catches within the same millisecond. */
let caughtSequence = 0;

/** The caught mails kept as files in `dir`: written by any process, read by the one serving `/_mail`. */
class CaughtMailFiles {
  constructor(private readonly dir: string) {}

  add(mail: CaughtMail): void {
    mkdirSync(this.dir, { recursive: true });
    // Development data of this machine only: never committed.
    writeFileSync(join(this.dir, ".gitignore"), "*\n");
    // The time first (fixed width), so names sort oldest to newest across processes.
    caughtSequence = (caughtSequence + 1) % 1_000_000;
    const name = `${String(mail.at.getTime()).padStart(15, "0")}-${String(caughtSequence).padStart(6, "0")}-${randomUUID()}.json`;
    writeFileSync(join(this.dir, name), JSON.stringify(mail));
    for (const old of this.#names().slice(CAUGHT_MAILS_KEPT)) rmSync(join(this.dir, old), { force: true });
  }

  /** Newest first. */
  #names(): string[] {
    try {
      return readdirSync(this.dir)
        .filter((name) => /^\d{15}-\d{6}-[0-9a-f-]{36}\.json$/.test(name))
        .sort()
        .reverse();
    } catch {
      return [];
    }
  }

  list(): CaughtMail[] {
    const mails: CaughtMail[] = [];
    for (const name of this.#names().slice(0, CAUGHT_MAILS_KEPT)) {
      try {
        const stored = JSON.parse(readFileSync(join(this.dir, name), "utf8")) as CaughtMail & { at: string };
        mails.push({ ...stored, at: new Date(stored.at) });
      } catch {
        // Removed by another process meanwhile, or cut short: the page lists the others.
      }
    }
    return mails;
  }
}

const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
const BARE_URL = /\bhttps?:\/\/[^\s<>"')\]]+/g;

/** Every link of a mail, from its text and the `href`s of its HTML, each once, in order. */
export function mailLinks(mail: Pick<OutgoingMail, "text" | "html">): string[] {
  const links = new Set<string>();
  for (const match of (mail.text ?? "").matchAll(BARE_URL)) links.add(match[0]);
  for (const match of (mail.html ?? "").matchAll(HREF)) {
    const href = (match[1] ?? match[2] ?? match[3] ?? "").replace(/&amp;/g, "&");
    if (/^https?:\/\//i.test(href) || href.startsWith("/")) links.add(href);
  }
  return [...links];
}

/** The mail as the log shows it: headers, the text body (or the HTML when there is no text), attachments and links. */
export function formatLoggedMail(mail: OutgoingMail, messageId: string): string {
  const lines = [
    "",
    "---- mail (mailUrl log:, not sent) ----",
    `Message-ID: ${messageId}`,
    `From: ${mail.from}`,
    `To: ${mail.to.join(", ")}`,
  ];
  if (mail.cc?.length) lines.push(`Cc: ${mail.cc.join(", ")}`);
  if (mail.bcc?.length) lines.push(`Bcc: ${mail.bcc.join(", ")}`);
  if (mail.replyTo) lines.push(`Reply-To: ${mail.replyTo}`);
  lines.push(`Subject: ${mail.subject}`);
  for (const attachment of mail.attachments ?? []) {
    const name = attachment.filename ?? ("path" in attachment ? attachment.path : "attachment");
    lines.push(`Attachment: ${name}${attachment.contentType ? ` (${attachment.contentType})` : ""}`);
  }
  lines.push("", mail.text ?? mail.html ?? "(no body)");
  const links = mailLinks(mail);
  if (links.length > 0) lines.push("", "Links:", ...links.map((link) => `  ${link}`));
  lines.push("---- end of mail ----", "");
  return lines.join("\n");
}

/**
 * The development mail catcher: `mailUrl: "log:"` prints each mail (headers, body, attachment
 * names and every link, so a verification link can be opened from the terminal) instead of
 * sending it. Nothing leaves the machine; the scaffolds use it in development. With `options.dir`
 * the last mails are kept as files there, shared by the app's processes and kept across restarts.
 */
export class LogTransport implements MailTransport {
  readonly kind = "log";
  readonly #write: MailLogWriter;
  readonly #caught: CaughtMail[] = [];
  readonly #files: CaughtMailFiles | undefined;

  constructor(
    url: URL,
    write: MailLogWriter = (text) => void process.stdout.write(text),
    options: LogTransportOptions = {},
  ) {
    if ([...url.searchParams.keys()].length > 0 || (url.pathname !== "" && url.pathname !== "//")) {
      throw new E_SERVICE_URL_INVALID("mailUrl", url.href, 'the log transport takes no path or options: write "log:"');
    }
    this.#write = write;
    this.#files = options.dir === undefined ? undefined : new CaughtMailFiles(options.dir);
  }

  async send(mail: OutgoingMail): Promise<MailInfo> {
    const messageId = `<${randomUUID()}@log.invalid>`;
    this.#write(formatLoggedMail(mail, messageId));
    const caught: CaughtMail = {
      messageId,
      at: new Date(),
      from: mail.from,
      to: [...mail.to],
      subject: mail.subject,
      ...(mail.text === undefined ? {} : { text: mail.text }),
      ...(mail.html === undefined ? {} : { html: mail.html }),
      links: mailLinks(mail),
    };
    // Newest first, a bounded number: the preview page shows the last mails, the log keeps them all.
    if (this.#files) this.#files.add(caught);
    else {
      this.#caught.unshift(caught);
      this.#caught.length = Math.min(this.#caught.length, CAUGHT_MAILS_KEPT);
    }
    return {
      messageId,
      accepted: [...mail.to, ...(mail.cc ?? []), ...(mail.bcc ?? [])],
      rejected: [],
      response: "250 written to the log",
    };
  }

  /** The last mails caught, newest first (at most {@link CAUGHT_MAILS_KEPT}). */
  caught(): readonly CaughtMail[] {
    return this.#files ? this.#files.list() : [...this.#caught];
  }

  async verify(): Promise<void> {}

  close(): void {}
}
