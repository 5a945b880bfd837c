import type { Disk } from "flydrive";
import { E_SERVICE_NOT_CONFIGURED } from "../errors.js";
import type { DriverListOptions, DriverListPage } from "./listing.js";

/** Whether stored files are readable by anyone with their URL or only through signed links. */
export type Visibility = "public" | "private";

/**
 * One storage backend behind a flydrive `Disk`, plus what flydrive leaves to the app: how public
 * and signed URLs look. Keys given here are already checked and prefixed.
 */
export interface StorageDriver {
  /** `local`, `s3`, `gcs` or `azure`. */
  readonly kind: string;
  /**
   * The flydrive disk doing the I/O, once {@link StorageDriver.openDisk} made it (every storage
   * call does); reading it before throws `E_SERVICE_NOT_CONFIGURED`.
   */
  readonly disk: Disk;
  /** Makes the disk on first call (flydrive and the backend's SDK are imported then) and gives it. */
  openDisk(): Promise<Disk>;
  /** The default visibility of new files. */
  readonly visibility: Visibility;
  /** Prefix put before every key inside the backend (`""` for none). */
  readonly prefix: string;
  /** The bucket (S3, Cloud Storage) or container (Azure) the files live in; none on local disk. */
  readonly bucket?: string;
  /** The URL of a public file. */
  url(key: string): Promise<string>;
  /** A link to a private file that works for `seconds`. */
  signedUrl(key: string, seconds: number): Promise<string>;
  /**
   * One page of the files and sub-folders in `folder` (a backend key prefix ending in `/`, or `""`
   * for the whole backend), in key order; keys come back as the backend names them.
   */
  list(folder: string, options: DriverListOptions): Promise<DriverListPage>;
  /** Releases connections. */
  close(): void;
}

/** Encodes each `/`-separated name of a key for use in a URL path. */
export function keyToPath(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}

/**
 * The disk of a driver, made on first use: flydrive costs a few hundred milliseconds to import,
 * which an app that never touches its storage should not pay at start-up.
 */
export class LazyDisk {
  #disk: Disk | undefined;
  #opening: Promise<Disk> | undefined;
  readonly #make: () => Promise<Disk>;

  constructor(make: () => Promise<Disk>) {
    this.#make = make;
  }

  /** The disk; throws when {@link LazyDisk.open} has not finished yet. */
  get current(): Disk {
    if (!this.#disk)
      throw new E_SERVICE_NOT_CONFIGURED(
        "storage disk",
        "it is made on first use: await driver.openDisk() before reading driver.disk",
      );
    return this.#disk;
  }

  /** Makes the disk once; later calls share the first call's result. */
  open(): Promise<Disk> {
    this.#opening ??= this.#make().then((disk) => (this.#disk = disk));
    return this.#opening;
  }
}
