/**
 * Sessions in Azure Blob Storage (`azblob://[ACCOUNT:KEY@]container/prefix?endpoint=...`): one
 * JSON blob per session, its expiry in the blob's metadata so `sweep()` can delete expired ones
 * (a lifecycle management rule on the prefix is the production complement).
 */
import type { BlockBlobClient, ContainerClient } from "@azure/storage-blob";
import type { AzureBlobLocation } from "@fwkit/battery-kit";
import { requireDriver } from "../drivers.js";
import { parseSessionData, type SessionData, type SessionStore } from "./store.js";

/** Metadata names must be C# identifiers: no hyphen. */
const EXPIRES = "sessionexpires";

function isMissing(error: unknown): boolean {
  return (error as { statusCode?: number } | undefined)?.statusCode === 404;
}

/** An Azure Blob session store. */
export class AzureBlobSessionStore implements SessionStore {
  readonly kind = "azure";
  readonly #container: ContainerClient;
  readonly #prefix: string;

  constructor(location: AzureBlobLocation) {
    const sdk = requireDriver<typeof import("@azure/storage-blob")>("@azure/storage-blob", "Azure Blob session store");
    this.#prefix = location.prefix ? `${location.prefix}/` : "";
    const credential = new sdk.StorageSharedKeyCredential(location.account, location.accountKey);
    // Few, short retries: an unreachable store must give a 503 in seconds, not hang the request.
    const service = new sdk.BlobServiceClient(location.endpoint, credential, {
      retryOptions: { maxTries: 2, tryTimeoutInMs: 5000, retryDelayInMs: 200, maxRetryDelayInMs: 1000 },
    });
    this.#container = service.getContainerClient(location.container);
  }

  #blob(id: string): BlockBlobClient {
    return this.#container.getBlockBlobClient(`${this.#prefix}${id}.json`);
  }

  async get(id: string): Promise<SessionData | undefined> {
    try {
      const blob = this.#blob(id);
      const download = await blob.download();
      const expires = Number(download.metadata?.[EXPIRES]);
      const chunks: Buffer[] = [];
      for await (const chunk of download.readableStreamBody ?? []) chunks.push(Buffer.from(chunk as Buffer));
      if (!Number.isFinite(expires) || expires <= Date.now()) return undefined;
      return parseSessionData(Buffer.concat(chunks).toString("utf8"));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async set(id: string, data: SessionData, expiresAt: number): Promise<void> {
    const body = Buffer.from(JSON.stringify(data));
    await this.#blob(id).upload(body, body.byteLength, {
      blobHTTPHeaders: { blobContentType: "application/json" },
      metadata: { [EXPIRES]: String(Math.ceil(expiresAt)) },
    });
  }

  async destroy(id: string): Promise<void> {
    await this.#blob(id).deleteIfExists();
  }

  async sweep(): Promise<number> {
    const now = Date.now();
    let removed = 0;
    for await (const blob of this.#container.listBlobsFlat({ prefix: this.#prefix, includeMetadata: true })) {
      if (!blob.name.endsWith(".json")) continue;
      const expires = Number(blob.metadata?.[EXPIRES]);
      if (Number.isFinite(expires) && expires > now) continue;
      const deleted = await this.#container.getBlockBlobClient(blob.name).deleteIfExists();
      if (deleted.succeeded) removed++;
    }
    return removed;
  }

  /** The SDK keeps no connections of its own beyond Node's agent. */
  async close(): Promise<void> {}
}
