import { createReadStream } from "node:fs";
import { stat, unlink } from "node:fs/promises";
import { Readable } from "node:stream";
import { E_SERVICES_CONFIG_INVALID, E_STORAGE_NOT_FOUND, E_STORAGE_UPLOAD_MISSING } from "../errors.js";
import { consoleLogger, type ServiceLogger } from "../logger.js";
import { defaultRegistry, type SignalRegistry } from "../signals/signal.js";
import { SIGNALS, type FileStoredPayload } from "../signals/names.js";
import { createStorageDriver, DEFAULT_STORAGE_URL } from "./create-driver.js";
import type { Disk } from "flydrive";
import type { StorageDriver } from "./driver.js";
import { checkKey, typeOfKey, uploadKey } from "./keys.js";
import { guard } from "./guard.js";
import { storageLister } from "./list-files.js";
import type { StorageListing, StorageListOptions } from "./listing.js";
import { missingBucketCheck } from "./missing-bucket.js";
import { checkSize, checkType, DEFAULT_LIMITS, spool, type StorageLimits } from "./limits.js";

/** What {@link createStorage} needs; the services plugin reads them from config. */
export interface StorageOptions {
  /** `file:data/uploads` (default), `file:/abs/dir`, `s3://[key:secret@]bucket/prefix?endpoint=...`, `gs://bucket/prefix` or `azblob://container/prefix`. */
  readonly url?: string;
  /** The app root (relative `file:` folders are inside it). */
  readonly root: string;
  /** Signs links to private local files (the app's secret key). */
  readonly secret: string;
  /** Where local files are served by {@link serveStorage} (default `/uploads`). */
  readonly publicPath?: string;
  /** Size and type limits (default 10 MiB, any type). */
  readonly limits?: Partial<StorageLimits>;
  /** Where `file.stored` is sent (default: the process-wide registry). */
  readonly signals?: SignalRegistry;
  /** Where a missing bucket or container is reported, at error level (default: stderr). */
  readonly logger?: ServiceLogger;
}

/** A file written to storage. */
export interface StoredFile {
  /** The key to read it back with. */
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
  /** The client's name for an upload (never used as the key). */
  readonly originalName?: string;
}

/** An uploaded file as koa-body (formidable) hands it over. */
export interface UploadedFile {
  /** Temporary path formidable wrote the upload to. */
  readonly filepath: string;
  readonly originalFilename?: string | null;
  readonly mimetype?: string | null;
  readonly size?: number;
}

/** Files by key, on local disk or in object storage, with the same calls. */
export interface Storage {
  /** `local`, `s3`, `gcs` or `azure`. */
  readonly kind: string;
  /** The backend (exposed for {@link serveStorage} and inspection). */
  readonly driver: StorageDriver;
  /** The limits in force. */
  readonly limits: StorageLimits;
  /** Writes a file whole (a stream is spooled first, so an oversized one writes nothing) and sends `file.stored`. */
  put(
    key: string,
    data: string | Uint8Array | Readable,
    options?: { contentType?: string; originalName?: string },
  ): Promise<StoredFile>;
  /** Streams a file; `E_STORAGE_NOT_FOUND` (404) when absent. */
  get(key: string): Promise<Readable>;
  /** Reads a file into memory; `E_STORAGE_NOT_FOUND` (404) when absent. */
  getBytes(key: string): Promise<Uint8Array>;
  /** Deletes a file (no error when it is already gone). */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The URL of a public file. */
  url(key: string): Promise<string>;
  /** A link to a private file that expires (`expiresIn` seconds, default 900). */
  signedUrl(key: string, options?: { expiresIn?: number }): Promise<string>;
  /**
   * One page of the files and sub-folders in a folder (`""` or none: the whole storage), in key
   * order; `recursive` lists every file below it instead. Keys are relative to the storage, never
   * outside it; pass `cursor` back for the next page. An unsafe folder (`..`) is
   * `E_STORAGE_KEY_INVALID` (400), a cursor that was not made for this listing `E_STORAGE_CURSOR_INVALID` (400).
   */
  list(folder?: string, options?: StorageListOptions): Promise<StorageListing>;
  /** Stores an upload under a generated name (`<prefix>/<uuid>.<ext>`) after checking its size and type. */
  storeUpload(
    file: UploadedFile | readonly UploadedFile[] | undefined,
    options?: { prefix?: string },
  ): Promise<StoredFile>;
  /** Releases connections. */
  close(): void;
}

/**
 * The one file of an upload field as `ctx.request.files?.[field]` gives it: a field the client left
 * out, or sent several files in, is the client's mistake (400), not a crash reading `undefined`.
 */
function oneUpload(upload: UploadedFile | readonly UploadedFile[] | undefined): UploadedFile {
  const files =
    upload === undefined || upload === null ? [] : Array.isArray(upload) ? upload : [upload as UploadedFile];
  if (files.length !== 1 || typeof files[0]?.filepath !== "string") {
    throw new E_STORAGE_UPLOAD_MISSING(
      files.length === 0
        ? "none"
        : files.length === 1
          ? "something that is not an uploaded file"
          : `${files.length} files`,
    );
  }
  return files[0];
}

/** Builds storage from one URL (see {@link StorageOptions}). */
export function createStorage(options: StorageOptions): Storage {
  const driver = createStorageDriver(options.url ?? DEFAULT_STORAGE_URL, {
    root: options.root,
    secret: options.secret,
    publicPath: options.publicPath ?? "/uploads",
  });
  const limits: StorageLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const signals = options.signals ?? defaultRegistry();
  const bucketCheck = missingBucketCheck(driver, options.logger ?? consoleLogger);
  const guarded = <T>(operation: string, key: string, call: () => Promise<T>) =>
    guard(operation, key, call, bucketCheck);
  const full = (key: string) => (driver.prefix ? `${driver.prefix}/${checkKey(key)}` : checkKey(key));
  // The disk is made at the first file operation (not at start-up); the key is checked before.
  const onDisk =
    <T>(key: string, use: (disk: Disk, path: string) => Promise<T>) =>
    async (): Promise<T> => {
      const path = full(key);
      return use(await driver.openDisk(), path);
    };

  const list = storageLister(driver, options.secret, bucketCheck);

  async function stored(file: StoredFile): Promise<StoredFile> {
    const payload: FileStoredPayload = file;
    await signals.get<FileStoredPayload>(SIGNALS.fileStored).send(payload);
    return file;
  }

  function describe(key: string, size: number, contentType: string, originalName?: string): StoredFile {
    return originalName === undefined ? { key, size, contentType } : { key, size, contentType, originalName };
  }

  /** Writes a file of known size from disk; the backend never sees a partial file from us. */
  async function writeFile(key: string, path: string, size: number, contentType: string): Promise<void> {
    await guarded(
      "write",
      key,
      onDisk(key, (disk, target) =>
        disk.putStream(target, createReadStream(path), { contentType, contentLength: size }),
      ),
    );
  }

  const storage: Storage = {
    kind: driver.kind,
    driver,
    limits,

    async put(key, data, putOptions = {}) {
      checkKey(key);
      const contentType = checkType(putOptions.contentType ?? typeOfKey(key), limits);
      if (data instanceof Readable) {
        const spooled = await spool(data, limits);
        try {
          await writeFile(key, spooled.path, spooled.size, contentType);
        } finally {
          await spooled.remove();
        }
        return stored(describe(key, spooled.size, contentType, putOptions.originalName));
      }
      const bytes = typeof data === "string" ? Buffer.from(data) : data;
      checkSize(bytes.byteLength, limits);
      await guarded(
        "write",
        key,
        onDisk(key, (disk, path) => disk.put(path, bytes, { contentType, contentLength: bytes.byteLength })),
      );
      return stored(describe(key, bytes.byteLength, contentType, putOptions.originalName));
    },

    async get(key) {
      checkKey(key);
      // The fs driver opens lazily and would report a missing file as a stream error, too late for a 404.
      // Object stores answer the GET itself, which tells a missing object (404) from a missing bucket
      // (503); their HEAD (exists) cannot, so they are not asked first.
      if (driver.kind === "local" && !(await storage.exists(key))) throw new E_STORAGE_NOT_FOUND(key);
      return guarded(
        "read",
        key,
        onDisk(key, (disk, path) => disk.getStream(path)),
      );
    },

    getBytes: (key) =>
      guarded(
        "read",
        key,
        onDisk(key, (disk, path) => disk.getBytes(path)),
      ),
    delete: (key) =>
      guarded(
        "delete",
        key,
        onDisk(key, (disk, path) => disk.delete(path)),
      ),
    async exists(key) {
      try {
        return await guarded(
          "check",
          key,
          onDisk(key, (disk, path) => disk.exists(path)),
        );
      } catch (error) {
        // A key below a file (`a.txt/b`) names nothing: absent, not a failure.
        if ((error as { code?: string }).code === "E_STORAGE_NOT_FOUND") return false;
        throw error;
      }
    },
    url: (key) => guarded("link", key, () => driver.url(full(key))),
    list,

    signedUrl(key, signOptions = {}) {
      const seconds = signOptions.expiresIn ?? 900;
      if (!(Number.isFinite(seconds) && seconds > 0)) {
        return Promise.reject(new E_SERVICES_CONFIG_INVALID("signedUrl's expiresIn", "a positive number of seconds"));
      }
      return guarded("link", key, () => driver.signedUrl(full(key), seconds));
    },

    async storeUpload(upload, uploadOptions = {}) {
      const file = oneUpload(upload);
      const size = (await guarded("read upload", file.filepath, () => stat(file.filepath))).size;
      checkSize(size, limits);
      const contentType = checkType(file.mimetype ?? "application/octet-stream", limits);
      const key = uploadKey(contentType, uploadOptions.prefix);
      await writeFile(key, file.filepath, size, contentType);
      // The temporary file is no longer needed; a failure to remove it must not fail the upload.
      await unlink(file.filepath).catch(() => {});
      return stored(describe(key, size, contentType, file.originalFilename ?? undefined));
    },

    close: () => driver.close(),
  };
  return storage;
}
