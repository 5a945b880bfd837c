import type { SESv2Client, SESv2ClientConfig } from "@aws-sdk/client-sesv2";
import type nodemailer from "nodemailer";
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

/**
 * The SES client config read from `ses://region`, `ses://KEY:SECRET@region` or
 * `ses://region?endpoint=https://...`. Without credentials in the URL the AWS SDK's default chain
 * applies (environment, shared files, instance role).
 */
export function sesClientConfig(url: URL): SESv2ClientConfig {
  const region = url.hostname;
  if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) {
    throw new E_SERVICE_URL_INVALID(
      "mailUrl",
      redactUrl(url.href),
      "write the AWS region as the host, e.g. ses://eu-west-1",
    );
  }
  const config: SESv2ClientConfig = { region };
  if (url.username) {
    config.credentials = {
      accessKeyId: decodeURIComponent(url.username),
      secretAccessKey: decodeURIComponent(url.password),
    };
  }
  for (const [key, value] of url.searchParams) {
    if (key !== "endpoint") {
      throw new E_SERVICE_URL_INVALID(
        "mailUrl",
        redactUrl(url.href),
        `the query "${key}" is not understood (known: endpoint)`,
      );
    }
    config.endpoint = value;
  }
  return config;
}

/**
 * Gives an SES failure a `code` the mailer reports as the reason: SES's error name
 * (`MessageRejected`, `BadRequestException`...), or `SES_HTTP_<status>` when the answer named none
 * (the SDK then says "Unknown"), and the HTTP status in the message.
 */
function withSesReason(error: unknown): unknown {
  const e = error as { name?: string; code?: unknown; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  if (typeof e !== "object" || e === null || typeof e.code === "string" || status === undefined) return error;
  const code = e.name && e.name !== "Unknown" && e.name !== "Error" ? e.name : `SES_HTTP_${status}`;
  return Object.assign(error as object, { code, message: `SES answered ${status}: ${e.message ?? code}` });
}

/**
 * Mail through the Amazon SES v2 API (nodemailer's SES transport builds the raw MIME message).
 * The AWS SDK and nodemailer are loaded when the first transport is built, not with the package.
 */
export class SesTransport implements MailTransport {
  readonly kind = "ses";
  /** The SES client, exposed for inspection (its resolved region and endpoint). */
  readonly client: SESv2Client;
  /** nodemailer's transporter around the client. */
  readonly transporter: nodemailer.Transporter;

  constructor(url: URL) {
    const config = sesClientConfig(url);
    const { SESv2Client, SendEmailCommand } = requireDriver<typeof import("@aws-sdk/client-sesv2")>(
      "@aws-sdk/client-sesv2",
      "SES mail transport",
    );
    const mailer = requireDriver<typeof nodemailer>("nodemailer", "SES mail transport");
    this.client = new SESv2Client(config);
    // @types/nodemailer still describes the SES v1 option shape; nodemailer 7 expects this one.
    const options = { SES: { sesClient: this.client, SendEmailCommand }, ...SAFE_NODEMAILER_OPTIONS };
    this.transporter = mailer.createTransport(options as unknown as nodemailer.TransportOptions);
  }

  async send(mail: OutgoingMail): Promise<MailInfo> {
    const info = (await this.transporter.sendMail(toNodemailer(mail)).catch((error: unknown) => {
      throw withSesReason(error);
    })) as {
      messageId: string;
      response: string;
      accepted?: Array<string | { address: string }>;
      rejected?: Array<string | { address: string }>;
    };
    return {
      messageId: info.messageId,
      accepted: info.accepted ? addresses(info.accepted) : [...mail.to],
      rejected: addresses(info.rejected),
      response: info.response,
    };
  }

  async verify(): Promise<void> {
    await this.transporter.verify();
  }

  close(): void {
    this.transporter.close();
    this.client.destroy();
  }
}
