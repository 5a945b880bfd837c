import type { ContainerClient } from "@azure/storage-blob";
import type { Disk } from "flydrive";
import type { AzureBlobLocation } from "@fwkit/battery-kit";
import { importDriver, requireDriver } from "../../drivers.js";
import { LazyDisk, type StorageDriver, type Visibility } from "../driver.js";
import { listDisk, type DriverListOptions, type DriverListPage } from "../listing.js";

/** What the Azure driver needs, read from `azblob://[ACCOUNT:KEY@]container/prefix?...`. */
export interface AzureDriverOptions {
  readonly location: AzureBlobLocation;
  readonly visibility: Visibility;
  /** Base URL of public files (a CDN); default: the container's URL. */
  readonly publicUrl?: string;
}

/**
 * Files in an Azure Blob Storage container (`@azure/storage-blob`, loaded when the driver is
 * built); signed links are read-only SAS links signed with the account key. Who may read a plain
 * URL is set on the container (its public access level), so a public storage wants a container
 * with blob-level public access.
 */
export class AzureStorageDriver implements StorageDriver {
  readonly kind = "azure";
  readonly visibility: Visibility;
  readonly prefix: string;
  readonly bucket: string;
  readonly container: ContainerClient;
  readonly #disk: LazyDisk;

  constructor(options: AzureDriverOptions) {
    const user = "Azure Blob file storage";
    const sdk = requireDriver<typeof import("@azure/storage-blob")>("@azure/storage-blob", user);
    const { location } = options;
    this.visibility = options.visibility;
    this.prefix = location.prefix;
    this.bucket = location.container;
    const credential = new sdk.StorageSharedKeyCredential(location.account, location.accountKey);
    // Short retries: an unreachable service should fail a request in seconds, not minutes.
    const service = new sdk.BlobServiceClient(location.endpoint, credential, {
      retryOptions: { maxTries: 2, tryTimeoutInMs: 10_000, retryDelayInMs: 200, maxRetryDelayInMs: 1000 },
    });
    this.container = service.getContainerClient(location.container);
    this.#disk = new LazyDisk(async () => {
      const [{ Disk, DriveFile, DriveDirectory }, { AzureBlobDisk }] = await Promise.all([
        importDriver<typeof import("flydrive")>("flydrive", user),
        import("./azure-disk.js"),
      ]);
      return new Disk(
        new AzureBlobDisk({
          sdk,
          container: this.container,
          credential,
          visibility: options.visibility,
          DriveFile,
          DriveDirectory,
          ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
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

  /** The SDK keeps no connections of its own beyond Node's agent. */
  close(): void {}
}
