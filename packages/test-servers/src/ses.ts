/**
 * aws-ses-v2-local (a local Amazon SES v2 API from the npm registry) on 127.0.0.1 on a free port.
 * What it received is read back over its own HTTP API (`GET /store`), as a test would from outside.
 */
import { createRequire } from "node:module";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A mail the local SES accepted, as its `/store` reports it. */
export interface SesMail {
  readonly messageId: string;
  readonly from: string;
  readonly destination: {
    readonly to: readonly string[];
    readonly cc: readonly string[];
    readonly bcc: readonly string[];
  };
  readonly subject: string;
  readonly body: { readonly text?: string; readonly html?: string };
  /** Attachments with base64 content. */
  readonly attachments: ReadonlyArray<{
    readonly filename?: string;
    readonly contentType: string;
    readonly content: string;
    readonly size: number;
  }>;
}

/** A running local SES. */
export interface SesServer {
  /** `http://127.0.0.1:PORT`, the endpoint to give the SES client. */
  readonly endpoint: string;
  /** Every mail received so far. */
  mails(): Promise<SesMail[]>;
  close(): Promise<void>;
}

/** Starts aws-ses-v2-local on 127.0.0.1 (its store is per process: one server per test file). */
export async function startSes(): Promise<SesServer> {
  const require = createRequire(import.meta.url);
  const start = (
    require("aws-ses-v2-local") as { default: (config: { host: string; port: number }) => Promise<Server> }
  ).default;
  const server = await start({ host: "127.0.0.1", port: 0 });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    async mails() {
      const response = await fetch(`${endpoint}/store`);
      return ((await response.json()) as { emails: SesMail[] }).emails;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
