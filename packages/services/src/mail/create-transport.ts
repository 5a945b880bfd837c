import { E_SERVICE_URL_INVALID } from "../errors.js";
import { redactUrl, tryParseUrl } from "../urls.js";
import type { MailTransport } from "./transport.js";
import { LogTransport, type MailLogWriter } from "./transports/log.js";
import { MemoryTransport } from "./transports/memory.js";
import { SesTransport } from "./transports/ses.js";
import { SmtpTransport } from "./transports/smtp.js";

/**
 * Builds the transport a `mailUrl` names: `smtp://`, `smtps://`, `ses://region`, `log:` (the
 * development catcher, which prints mails through `log`, standard output by default) or `memory:`
 * (the test environment's: keeps them for the test to read).
 */
export function createMailTransport(mailUrl: string, log?: MailLogWriter): MailTransport {
  const url = tryParseUrl(mailUrl);
  if (!url) throw new E_SERVICE_URL_INVALID("mailUrl", redactUrl(mailUrl), "it is not a URL");
  switch (url.protocol) {
    case "smtp:":
    case "smtps:":
      return new SmtpTransport(url);
    case "ses:":
      return new SesTransport(url);
    case "log:":
      return new LogTransport(url, log);
    case "memory:":
      return new MemoryTransport(url);
    default:
      throw new E_SERVICE_URL_INVALID(
        "mailUrl",
        redactUrl(mailUrl),
        "use smtp://, smtps://, ses://region, log: (development: print mails instead of sending) or memory: (tests)",
      );
  }
}
