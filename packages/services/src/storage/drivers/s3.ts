import { S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { Disk } from "flydrive";
import { S3Driver } from "flydrive/drivers/s3";
import type { StorageDriver, Visibility } from "../driver.js";

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
}

/** Files in an S3-compatible bucket (flydrive's S3 driver on the AWS SDK); signed links are presigned GETs. */
export class S3StorageDriver implements StorageDriver {
  readonly kind = "s3";
  readonly disk: Disk;
  readonly visibility: Visibility;
  readonly prefix: string;
  readonly client: S3Client;

  constructor(options: S3DriverOptions) {
    this.visibility = options.visibility;
    this.prefix = options.prefix;
    this.client = new S3Client(options.client);
    this.disk = new Disk(
      new S3Driver({
        client: this.client,
        bucket: options.bucket,
        visibility: options.visibility,
        supportsACL: options.supportsACL,
        ...(options.publicUrl ? { cdnUrl: options.publicUrl.replace(/\/?$/, "/") } : {}),
      }),
    );
  }

  url(key: string): Promise<string> {
    return this.disk.getUrl(key);
  }

  signedUrl(key: string, seconds: number): Promise<string> {
    return this.disk.getSignedUrl(key, { expiresIn: seconds });
  }

  close(): void {
    this.client.destroy();
  }
}
