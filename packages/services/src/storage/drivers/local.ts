import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { Disk } from "flydrive";
import { importDriver } from "../../drivers.js";
import { keyToPath, LazyDisk, type StorageDriver, type Visibility } from "../driver.js";
import type { DriverListOptions, DriverListPage } from "../listing.js";
import { UrlSigner } from "../signing.js";

/** What the local driver needs. */
export interface LocalDriverOptions {
  /** Absolute folder the files live in. */
  readonly directory: string;
  readonly visibility: Visibility;
  /** Where {@link serveStorage} answers, e.g. `/uploads` or `https://files.example.com/uploads`. */
  readonly publicPath: string;
  /** Signs private links (the app's secret key). */
  readonly secret: string;
}

/**
 * Files on local disk (flydrive's fs driver, imported at the first file operation); URLs point at
 * the app's own {@link serveStorage} route.
 */
export class LocalDriver implements StorageDriver {
  readonly kind = "local";
  readonly prefix = "";
  readonly visibility: Visibility;
  readonly directory: string;
  readonly publicPath: string;
  /** Checks the links {@link LocalDriver.signedUrl} gives. */
  readonly signer: UrlSigner;
  readonly #disk: LazyDisk;

  constructor(options: LocalDriverOptions) {
    this.directory = options.directory;
    this.visibility = options.visibility;
    this.publicPath = options.publicPath.replace(/\/+$/, "");
    this.signer = new UrlSigner(options.secret);
    this.#disk = new LazyDisk(async () => {
      const user = "local file storage";
      const [{ Disk }, { FSDriver }] = await Promise.all([
        importDriver<typeof import("flydrive")>("flydrive", user),
        importDriver<typeof import("flydrive/drivers/fs")>("flydrive/drivers/fs", user),
      ]);
      return new Disk(new FSDriver({ location: options.directory, visibility: options.visibility }));
    });
  }

  get disk(): Disk {
    return this.#disk.current;
  }

  openDisk(): Promise<Disk> {
    return this.#disk.open();
  }

  async url(key: string): Promise<string> {
    return `${this.publicPath}/${keyToPath(key)}`;
  }

  async signedUrl(key: string, seconds: number): Promise<string> {
    const { expires, signature } = this.signer.sign(key, seconds);
    return `${this.publicPath}/${keyToPath(key)}?expires=${expires}&signature=${signature}`;
  }

  /**
   * Reads the folder (all of it below when recursive) and pages through the sorted names; the
   * token is the last name of the previous page, so files added meanwhile do not shift pages.
   * Only plain files and folders are listed: a symbolic link is never followed out of the folder.
   */
  async list(folder: string, options: DriverListOptions): Promise<DriverListPage> {
    let entries: Dirent[];
    try {
      entries = await readdir(join(this.directory, folder), { recursive: options.recursive, withFileTypes: true });
    } catch (error) {
      // A folder nothing was stored in yet (or a file's name used as a folder) lists as empty, as in object storage.
      if ((error as { code?: string }).code === "ENOENT" || (error as { code?: string }).code === "ENOTDIR")
        return { files: [], folders: [] };
      throw error;
    }
    const names: Array<{ key: string; file: boolean }> = [];
    for (const entry of entries) {
      if (!entry.isFile() && !(entry.isDirectory() && !options.recursive)) continue;
      const key = relative(this.directory, join(entry.parentPath, entry.name)).split(sep).join("/");
      names.push({ key, file: entry.isFile() });
    }
    names.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const start = options.token === undefined ? 0 : names.findIndex((entry) => entry.key > options.token!);
    const page = start < 0 ? [] : names.slice(start, start + options.pageSize);
    const more = start >= 0 && start + options.pageSize < names.length;
    const files = page.filter((entry) => entry.file).map((entry) => entry.key);
    const folders = page.filter((entry) => !entry.file).map((entry) => entry.key);
    return more ? { files, folders, token: page.at(-1)!.key } : { files, folders };
  }

  close(): void {}
}
