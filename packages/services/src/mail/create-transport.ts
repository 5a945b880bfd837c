import { E_SERVICE_URL_INVALID } from "../errors.js";
import { redactUrl, tryParseUrl } from "../urls.js";
import type { MailTransport } from "./transport.js";
import { SesTransport } from "./transports/ses.js";
import { SmtpTransport } from "./transports/smtp.js";

/** Builds the transport a `mailUrl` names: `smtp://`, `smtps://` or `ses://region`. */
export function createMailTransport(mailUrl: string): MailTransport {
  const url = tryParseUrl(mailUrl);
  if (!url) throw new E_SERVICE_URL_INVALID("mailUrl", redactUrl(mailUrl), "it is not a URL");
  switch (url.protocol) {
    case "smtp:":
    case "smtps:":
      return new SmtpTransport(url);
    case "ses:":
      return new SesTransport(url);
    default:
      throw new E_SERVICE_URL_INVALID("mailUrl", redactUrl(mailUrl), "use smtp://, smtps:// or ses://region");
  }
}
