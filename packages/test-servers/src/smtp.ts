import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A message the test SMTP server accepted, parsed. */
export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly parsed: ParsedMail;
  /** The message as it came over the wire (headers and MIME parts, still encoded). */
  readonly raw: string;
}

/** A running smtp-server on 127.0.0.1 that keeps what it receives. */
export interface SmtpServer {
  /** `smtp://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  /** Every message received, in order. */
  readonly messages: ReceivedMail[];
  /** Resolves with the next message (or one already received after `since`). */
  waitForMail(timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * Starts an SMTP server; with `reject`, every recipient is refused with a 550 reply; `port` listens
 * on a given port (a server that comes back where an app was told to send), else on a free one.
 */
export async function startSmtp(options: { reject?: boolean; port?: number } = {}): Promise<SmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<(mail: ReceivedMail) => void> = [];
  let consumed = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.reject) {
        const error = new Error(`Mailbox ${address.address} unavailable`) as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      new Promise<Buffer>((resolve, reject) => {
        stream.on("end", () => resolve(Buffer.concat(chunks)));
        stream.on("error", reject);
      })
        .then(async (raw) => {
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            parsed: await simpleParser(raw),
            raw: raw.toString("utf8"),
          };
          messages.push(mail);
          const waiter = waiters.shift();
          if (waiter) {
            consumed++;
            waiter(mail);
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    // Resolves at the mail; the default only ends a hang (a busy machine delays the sender a lot).
    waitForMail(timeoutMs = 60_000) {
      if (consumed < messages.length) return Promise.resolve(messages[consumed++]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no mail reached the test SMTP server within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push((mail) => {
          clearTimeout(timer);
          resolve(mail);
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
