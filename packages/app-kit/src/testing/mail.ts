/**
 * The test client's `mail`: the mails the app sent through the test environment's memory
 * transport (`mailUrl: "memory:"`, the default there), with the reads a test asserts on, as
 * `client.jobs` gives the dispatched jobs.
 */
import type { ServicesPlugin } from "@fwkit/services";
import type { MemoryTransport, SentMail } from "@fwkit/services/plugin";
import type { TestClient } from "@fwkit/koa-host/testing";
import { runtimeOf } from "@fwkit/koa-host/plugin";
import { E_TEST_MAIL_NOT_SENT, E_TEST_MAIL_UNAVAILABLE } from "../errors.js";

/** Which mails a read keeps: to one address (To, Cc or Bcc), with a subject (exact, or matching). */
export interface MailFilter {
  readonly to?: string;
  readonly subject?: string | RegExp;
}

/** The mails an app sent in a test (`client.mail`). */
export interface MailFake {
  /** The mails sent so far, oldest first, those `filter` keeps. */
  sent(filter?: MailFilter): SentMail[];
  /** The last mail sent (that `filter` keeps, or to that address); none is `E_TEST_MAIL_NOT_SENT` listing what was sent. */
  last(filter?: MailFilter | string): SentMail;
  /** Forgets the mails sent so far (between the steps of a test). */
  clear(): void;
}

function keeps(mail: SentMail, filter: MailFilter): boolean {
  if (filter.to !== undefined) {
    const address = filter.to.toLowerCase();
    const recipients = [...mail.to, ...mail.cc, ...mail.bcc].map((to) => to.toLowerCase());
    if (!recipients.some((to) => to === address || to.endsWith(`<${address}>`))) return false;
  }
  if (filter.subject instanceof RegExp) return filter.subject.test(mail.subject);
  return filter.subject === undefined || mail.subject === filter.subject;
}

function describeFilter(filter: MailFilter): string {
  const parts = [
    ...(filter.to === undefined ? [] : [`to ${filter.to}`]),
    ...(filter.subject === undefined ? [] : [`with the subject ${String(filter.subject)}`]),
  ];
  return parts.join(" ");
}

/** The app's memory transport, or a coded error saying why there is none. */
function transportOf(client: TestClient): MemoryTransport {
  const plugin = runtimeOf(client.host.koa.context).plugins.find((candidate) => candidate.name === "services") as
    | ServicesPlugin
    | undefined;
  if (!plugin) throw new E_TEST_MAIL_UNAVAILABLE("the services battery is off");
  let transport: { kind: string };
  try {
    transport = plugin.services.mailer.transport;
  } catch (error) {
    throw new E_TEST_MAIL_UNAVAILABLE(`the app has no mailer (${(error as Error).message})`);
  }
  if (transport.kind !== "memory")
    throw new E_TEST_MAIL_UNAVAILABLE(`its mailUrl is a ${transport.kind} transport, which keeps no mail`);
  return transport as MemoryTransport;
}

/** The `mail` of a test client. */
export function mailFake(client: TestClient): MailFake {
  const sent = (filter: MailFilter = {}) =>
    transportOf(client)
      .sent()
      .filter((mail) => keeps(mail, filter));
  return {
    sent,
    last(given = {}) {
      const filter = typeof given === "string" ? { to: given } : given;
      const found = sent(filter).at(-1);
      if (found) return found;
      const all = transportOf(client)
        .sent()
        .map((mail) => `"${mail.subject}" to ${mail.to.join(", ")}`);
      throw new E_TEST_MAIL_NOT_SENT(describeFilter(filter), all);
    },
    clear: () => transportOf(client).clear(),
  };
}
