/**
 * Sessions in object storage through the S3 API (`s3://bucket/prefix?endpoint=...&region=...`):
 * AWS S3 or any compatible server (MinIO, s3rver). One JSON object per session; its expiry is in
 * the object's metadata so `sweep()` can delete expired objects (an S3 lifecycle rule on the
 * prefix is the production complement). Google Cloud Storage's XML API (`gs://`) is served by
 * the same store with Google's endpoint and an HMAC key.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { requireDriver } from "../drivers.js";
import { parseSessionData, type SessionData, type SessionStore } from "./store.js";

/** Options of {@link S3SessionStore}. */
export interface S3SessionStoreOptions {
  readonly bucket: string;
  /** Key prefix inside the bucket, without slashes at either end ("" for the bucket root). */
  readonly prefix: string;
  readonly region: string;
  /** Endpoint of an S3-compatible server; AWS when absent. */
  readonly endpoint: string | undefined;
  readonly forcePathStyle: boolean;
  /** Static credentials; the SDK's default chain (environment, profile, role) when absent. */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined;
  /** `s3`, or `gcs` for Google Cloud Storage through its S3-compatible XML API (named so in messages). */
  readonly kind?: "s3" | "gcs";
}

const EXPIRES = "session-expires";

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

/** An S3 session store. */
export class S3SessionStore implements SessionStore {
  readonly kind: "s3" | "gcs";
  readonly #client: S3Client;
  // The SDK is an optional peer dependency, loaded by the constructor (E_SECURITY_DRIVER_MISSING when absent).
  readonly #sdk: typeof import("@aws-sdk/client-s3");
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(options: S3SessionStoreOptions) {
    this.kind = options.kind ?? "s3";
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ? `${options.prefix}/` : "";
    this.#sdk = requireDriver<typeof import("@aws-sdk/client-s3")>(
      "@aws-sdk/client-s3",
      `${this.kind === "gcs" ? "Google Cloud Storage" : "S3"} session store`,
    );
    this.#client = new this.#sdk.S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      maxAttempts: 2,
      // Checksums only where the API demands them, so S3-compatible servers (MinIO, s3rver) work.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 },
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: { ...options.credentials } } : {}),
    });
  }

  #key(id: string): string {
    return `${this.#prefix}${id}.json`;
  }

  async get(id: string): Promise<SessionData | undefined> {
    try {
      const object = await this.#client.send(
        new this.#sdk.GetObjectCommand({ Bucket: this.#bucket, Key: this.#key(id) }),
      );
      const expires = Number(object.Metadata?.[EXPIRES]);
      const text = (await object.Body?.transformToString("utf8")) ?? "";
      if (!Number.isFinite(expires) || expires <= Date.now()) return undefined;
      return parseSessionData(text);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async set(id: string, data: SessionData, expiresAt: number): Promise<void> {
    await this.#client.send(
      new this.#sdk.PutObjectCommand({
        Bucket: this.#bucket,
        Key: this.#key(id),
        Body: JSON.stringify(data),
        ContentType: "application/json",
        Metadata: { [EXPIRES]: String(Math.ceil(expiresAt)) },
      }),
    );
  }

  async destroy(id: string): Promise<void> {
    await this.#client.send(new this.#sdk.DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(id) }));
  }

  async sweep(): Promise<number> {
    const now = Date.now();
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.#client.send(
        new this.#sdk.ListObjectsV2Command({ Bucket: this.#bucket, Prefix: this.#prefix, ContinuationToken: token }),
      );
      const expired: string[] = [];
      for (const object of page.Contents ?? []) {
        if (!object.Key?.endsWith(".json")) continue;
        try {
          const head = await this.#client.send(
            new this.#sdk.HeadObjectCommand({ Bucket: this.#bucket, Key: object.Key }),
          );
          const expires = Number(head.Metadata?.[EXPIRES]);
          if (!Number.isFinite(expires) || expires <= now) expired.push(object.Key);
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      }
      // One DeleteObject each: DeleteObjects needs checksum headers that not every S3-compatible server accepts.
      for (const Key of expired) {
        await this.#client.send(new this.#sdk.DeleteObjectCommand({ Bucket: this.#bucket, Key }));
        removed++;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}
