/**
 * Listing keys under a folder: what every driver answers (one page of backend keys) and the
 * cursor the storage hands to the caller for the next page. The cursor is signed with the app's
 * secret and names the folder it continues, so a cursor sent back by a client (`?cursor=` in a
 * link) that was altered or made for another folder is a 400, never a backend error.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Disk } from "flydrive";
import { E_STORAGE_CURSOR_INVALID } from "../errors.js";

/** What a driver is asked for: one page under a backend folder. */
export interface DriverListOptions {
  /** Every file below the folder (no folders) instead of the folder's own files and sub-folders. */
  readonly recursive: boolean;
  /** At most this many files and folders. */
  readonly pageSize: number;
  /** Where the previous page stopped (the driver's own token). */
  readonly token?: string;
}

/** One page as the backend names things (keys with the driver's prefix). */
export interface DriverListPage {
  readonly files: readonly string[];
  /** Sub-folders, without a trailing `/` (none when recursive). */
  readonly folders: readonly string[];
  /** The driver's token for the next page; absent on the last one. */
  readonly token?: string;
}

/** The largest page a listing gives (S3's and Azure's own limit). */
export const MAX_PAGE_SIZE = 1000;

/**
 * One page through a flydrive driver's `listAll` (S3, Cloud Storage, Azure): called on the
 * driver itself, because the Disk's key normaliser strips the folder's trailing `/`, and a
 * recursive listing of `a` would then also list `ab/...`.
 */
export async function listDisk(disk: Disk, folder: string, options: DriverListOptions): Promise<DriverListPage> {
  const listOptions: { recursive: boolean; maxResults: number; paginationToken?: string } = {
    recursive: options.recursive,
    maxResults: options.pageSize,
    ...(options.token ? { paginationToken: options.token } : {}),
  };
  const listAll = disk.driver.listAll.bind(disk.driver) as (
    prefix: string,
    options: typeof listOptions,
  ) => ReturnType<Disk["driver"]["listAll"]>;
  const page = await listAll(folder, listOptions);
  const files: string[] = [];
  const folders: string[] = [];
  for (const entry of page.objects) {
    if (entry.isFile) files.push(entry.key);
    else folders.push(entry.prefix.replace(/\/+$/, ""));
  }
  return page.paginationToken ? { files, folders, token: page.paginationToken } : { files, folders };
}

/** Signs and reads the cursors of {@link Storage.list}. */
export class ListCursor {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  #mac(payload: string): string {
    return createHmac("sha256", this.#secret).update(`storage-list\n${payload}`).digest("base64url");
  }

  /** The cursor continuing the listing of `folder` after the driver's `token`. */
  make(folder: string, recursive: boolean, token: string): string {
    const payload = Buffer.from(JSON.stringify({ f: folder, r: recursive, t: token })).toString("base64url");
    return `${payload}.${this.#mac(payload)}`;
  }

  /** The driver's token in `cursor`; `E_STORAGE_CURSOR_INVALID` (400) unless this listing made it. */
  read(cursor: unknown, folder: string, recursive: boolean): string {
    if (typeof cursor !== "string" || cursor.length > 4096)
      throw new E_STORAGE_CURSOR_INVALID("it is not a cursor a listing gave");
    const [payload = "", mac = ""] = cursor.split(".", 2);
    const expected = Buffer.from(this.#mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new E_STORAGE_CURSOR_INVALID("it was altered or made by another app");
    const data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      f?: unknown;
      r?: unknown;
      t?: unknown;
    };
    if (data.f !== folder || data.r !== recursive || typeof data.t !== "string") {
      throw new E_STORAGE_CURSOR_INVALID("it continues another listing (another folder, or recursive differs)");
    }
    return data.t;
  }
}

/** What {@link Storage.list} takes besides the folder. */
export interface StorageListOptions {
  /** Every file below the folder, at any depth (and no folders); default false: the folder's own files and sub-folders. */
  readonly recursive?: boolean | undefined;
  /** At most this many files and folders per page: 1 to 1000 (default 1000). */
  readonly pageSize?: number | undefined;
  /** The `cursor` of the previous page, to get the next one (undefined: the first page). */
  readonly cursor?: string | undefined;
}

/** One page of a listing; keys are relative to the storage (what `get` and `delete` take). */
export interface StorageListing {
  /** The files, in key order (`reports/2024/a.pdf`). */
  readonly files: readonly string[];
  /** The sub-folders, in key order, without a trailing `/` (`reports/2024`); empty when recursive. */
  readonly folders: readonly string[];
  /** Pass it back as `cursor` for the next page; absent on the last page. */
  readonly cursor?: string;
}
