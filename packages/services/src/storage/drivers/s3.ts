import type { S3Client, S3ClientConfig } from "@aws-sdk/client-s3";
import type { Disk } from "flydrive";
import { importDriver, requireDriver } from "../../drivers.js";
import { LazyDisk, type StorageDriver, type Visibility } from "../driver.js";
import { listDisk, type DriverListOptions, type DriverListPage } from "../listing.js";

/** What the S3 driver needs, read from `s3://[key:secret@]bucket/prefix?...`. */
export interface S3DriverOptions {
  readonly bucket: string;
  readonly prefix: string;
  readonly visibility: Visibility;
  readonly client: S3ClientConfig;
  /** False for services without ACLs (Cloudflare R2, buckets with ACLs disabled). */
  readonly supportsACL: boolean;
  /** Base URL of public files (a CDN); default: the endpoint and bucket. */
  readonly publicUrl?: string;
  /** `s3`, or `gcs` for Google Cloud Storage reached through its S3-compatible XML API. */
  readonly kind?: "s3" | "gcs";
}

/**
 * Files in an S3-compatible bucket (flydrive's S3 driver on the AWS SDK); signed links are
 * presigned GETs. The SDK is loaded when the driver is built (an app that configures S3), flydrive
 * at the first file operation.
 */
export class S3StorageDriver implements StorageDriver {
  readonly kind: "s3" | "gcs";
  readonly visibility: Visibility;
  readonly prefix: string;
  readonly bucket: string;
  readonly client: S3Client;
  readonly #disk: LazyDisk;

  constructor(options: S3DriverOptions) {
    this.kind = options.kind ?? "s3";
    this.visibility = options.visibility;
    this.prefix = options.prefix;
    this.bucket = options.bucket;
    const { S3Client } = requireDriver<typeof import("@aws-sdk/client-s3")>(
      "@aws-sdk/client-s3",
      options.kind === "gcs" ? "Google Cloud Storage file storage" : "S3 file storage",
    );
    this.client = new S3Client(options.client);
    // flydrive's S3 driver imports the presigner (an optional peer too): checked here, so a missing
    // one is named with its own install command at start-up rather than as a failure to load flydrive.
    requireDriver(
      "@aws-sdk/s3-request-presigner",
      options.kind === "gcs" ? "Google Cloud Storage file storage" : "S3 file storage",
    );
    this.#disk = new LazyDisk(async () => {
      const user = this.kind === "gcs" ? "Google Cloud Storage file storage" : "S3 file storage";
      const [{ Disk }, { S3Driver }] = await Promise.all([
        importDriver<typeof import("flydrive")>("flydrive", user),
        importDriver<typeof import("flydrive/drivers/s3")>("flydrive/drivers/s3", user),
      ]);
      return new Disk(
        new S3Driver({
          client: this.client,
          bucket: options.bucket,
          visibility: options.visibility,
          supportsACL: options.supportsACL,
          ...(options.publicUrl ? { cdnUrl: options.publicUrl.replace(/\/?$/, "/") } : {}),
        }),
      );
    });
  }

  get disk(): Disk {
    return this.#disk.current;
  }

  openDisk(): Promise<Disk> {
    return this.#disk.open();
  }

  async url(key: string): Promise<string> {
    return (await this.openDisk()).getUrl(key);
  }

  async signedUrl(key: string, seconds: number): Promise<string> {
    return (await this.openDisk()).getSignedUrl(key, { expiresIn: seconds });
  }

  async list(folder: string, options: DriverListOptions): Promise<DriverListPage> {
    return listDisk(await this.openDisk(), folder, options);
  }

  close(): void {
    this.client.destroy();
  }
}
