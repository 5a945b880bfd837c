/**
 * flydrive's driver contract on Azure Blob Storage (flydrive ships drivers for disk, S3 and GCS,
 * not Azure). Works on one container through `@azure/storage-blob`; the caller has loaded the SDK.
 */
import { Readable } from "node:stream";
import type { ContainerClient, StorageSharedKeyCredential } from "@azure/storage-blob";
import type * as AzureBlob from "@azure/storage-blob";
import type { DriveDirectory as DriveDirectoryType, DriveFile as DriveFileType } from "flydrive";
import type { DriverContract, ObjectMetaData, ObjectVisibility, SignedURLOptions, WriteOptions } from "flydrive/types";
import { keyToPath } from "../driver.js";

/** What {@link AzureBlobDisk} works with. */
export interface AzureBlobDiskOptions {
  readonly sdk: typeof AzureBlob;
  readonly container: ContainerClient;
  /** Signs SAS links; links need the account key. */
  readonly credential: StorageSharedKeyCredential;
  readonly visibility: ObjectVisibility;
  /** Base URL of public files (a CDN); default: the container's URL. */
  readonly publicUrl?: string;
  /** flydrive's file and folder classes, for listings. */
  readonly DriveFile: typeof DriveFileType;
  readonly DriveDirectory: typeof DriveDirectoryType;
}

/** Seconds from flydrive's `expiresIn` (we pass numbers; a numeric string is read too). */
function seconds(expiresIn: string | number | undefined): number {
  const value = typeof expiresIn === "number" ? expiresIn : Number.parseInt(expiresIn ?? "", 10);
  return Number.isFinite(value) && value > 0 ? value : 900;
}

/** A flydrive driver on one Azure Blob container. */
export class AzureBlobDisk implements DriverContract {
  readonly #options: AzureBlobDiskOptions;

  constructor(options: AzureBlobDiskOptions) {
    this.#options = options;
  }

  #blob(key: string) {
    return this.#options.container.getBlockBlobClient(key);
  }

  #sas(key: string, permissions: string, expiresIn: string | number | undefined, contentType?: string): string {
    const { sdk, credential, container } = this.#options;
    const query = sdk.generateBlobSASQueryParameters(
      {
        containerName: container.containerName,
        blobName: key,
        permissions: sdk.BlobSASPermissions.parse(permissions),
        // A minute of slack for clocks that differ between the app and the service.
        startsOn: new Date(Date.now() - 60_000),
        expiresOn: new Date(Date.now() + seconds(expiresIn) * 1000),
        protocol: container.url.startsWith("https:") ? sdk.SASProtocol.Https : sdk.SASProtocol.HttpsAndHttp,
        ...(contentType ? { contentType } : {}),
      },
      credential,
    );
    return `${this.#blob(key).url}?${query.toString()}`;
  }

  exists(key: string): Promise<boolean> {
    return this.#blob(key).exists();
  }

  async get(key: string): Promise<string> {
    return (await this.#blob(key).downloadToBuffer()).toString("utf8");
  }

  async getStream(key: string): Promise<Readable> {
    const body = (await this.#blob(key).download()).readableStreamBody;
    return body instanceof Readable ? body : Readable.from(body ?? []);
  }

  async getBytes(key: string): Promise<Uint8Array> {
    return new Uint8Array(await this.#blob(key).downloadToBuffer());
  }

  async getMetaData(key: string): Promise<ObjectMetaData> {
    const properties = await this.#blob(key).getProperties();
    return {
      contentType: properties.contentType,
      contentLength: properties.contentLength ?? 0,
      etag: properties.etag ?? "",
      lastModified: properties.lastModified ?? new Date(0),
    };
  }

  async getVisibility(): Promise<ObjectVisibility> {
    return this.#options.visibility;
  }

  async getUrl(key: string): Promise<string> {
    const base = this.#options.publicUrl?.replace(/\/+$/, "") ?? this.#options.container.url;
    return `${base}/${keyToPath(key)}`;
  }

  async getSignedUrl(key: string, options: SignedURLOptions = {}): Promise<string> {
    return this.#sas(key, "r", options.expiresIn, options.contentType);
  }

  async getSignedUploadUrl(key: string, options: SignedURLOptions = {}): Promise<string> {
    return this.#sas(key, "cw", options.expiresIn);
  }

  /** Azure sets who may read at the container (its public access level), not per blob. */
  async setVisibility(): Promise<void> {}

  async put(key: string, contents: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
    const data = typeof contents === "string" ? Buffer.from(contents) : contents;
    await this.#blob(key).uploadData(data, { blobHTTPHeaders: headers(options) });
  }

  async putStream(key: string, contents: Readable, options: WriteOptions = {}): Promise<void> {
    await this.#blob(key).uploadStream(contents, 4 * 1024 * 1024, 2, { blobHTTPHeaders: headers(options) });
  }

  async copy(source: string, destination: string): Promise<void> {
    // A server-side copy in the same account; the source is read with the client's own credentials.
    await this.#blob(destination).syncCopyFromURL(this.#sas(source, "r", 300));
  }

  async move(source: string, destination: string): Promise<void> {
    await this.copy(source, destination);
    await this.delete(source);
  }

  async delete(key: string): Promise<void> {
    await this.#blob(key).deleteIfExists();
  }

  async deleteAll(prefix: string): Promise<void> {
    const folder = prefix.replace(/\/*$/, "/");
    for await (const blob of this.#options.container.listBlobsFlat({ prefix: folder })) {
      await this.#options.container
        .deleteBlob(blob.name, { deleteSnapshots: "include" })
        .catch((error: { statusCode?: number }) => {
          if (error.statusCode !== 404) throw error;
        });
    }
  }

  async listAll(
    prefix: string,
    options: { recursive?: boolean; paginationToken?: string; maxResults?: number } = {},
  ): Promise<{ paginationToken?: string; objects: Iterable<DriveFileType | DriveDirectoryType> }> {
    const { container, DriveFile, DriveDirectory } = this.#options;
    // flydrive's Disk lists everything as "/"; Azure wants no prefix for that.
    const folder = prefix === "" || prefix === "/" ? "" : prefix.replace(/\/*$/, "/");
    const paging = {
      ...(options.paginationToken ? { continuationToken: options.paginationToken } : {}),
      maxPageSize: options.maxResults ?? 1000,
    };
    const pages = options.recursive
      ? container.listBlobsFlat({ prefix: folder }).byPage(paging)
      : container.listBlobsByHierarchy("/", { prefix: folder }).byPage(paging);
    const page = (await pages.next()).value as
      | {
          continuationToken?: string;
          segment: { blobItems: AzureBlob.BlobItem[]; blobPrefixes?: Array<{ name: string }> };
        }
      | undefined;
    const objects: Array<DriveFileType | DriveDirectoryType> = [];
    for (const entry of page?.segment.blobPrefixes ?? [])
      objects.push(new DriveDirectory(entry.name.replace(/\/$/, "")));
    for (const blob of page?.segment.blobItems ?? []) {
      objects.push(
        new DriveFile(blob.name, this, {
          contentType: blob.properties.contentType,
          contentLength: blob.properties.contentLength ?? 0,
          etag: blob.properties.etag ?? "",
          lastModified: blob.properties.lastModified,
        }),
      );
    }
    return page?.continuationToken ? { paginationToken: page.continuationToken, objects } : { objects };
  }
}

function headers(options: WriteOptions): AzureBlob.BlobHTTPHeaders {
  const result: AzureBlob.BlobHTTPHeaders = {};
  if (options.contentType) result.blobContentType = options.contentType;
  if (options.contentLanguage) result.blobContentLanguage = options.contentLanguage;
  if (options.contentEncoding) result.blobContentEncoding = options.contentEncoding;
  if (options.contentDisposition) result.blobContentDisposition = options.contentDisposition;
  if (options.cacheControl) result.blobCacheControl = options.cacheControl;
  return result;
}
