/**
 * `storage.list()`: a folder's files and sub-folders, a page at a time, with a signed cursor for
 * the next page. Backend keys are turned back into storage keys; names storage would refuse
 * (hidden files, folder markers, other tools' names) are left out.
 */
import { checkOptionKeys } from "routing-kernel";
import { E_SERVICES_CONFIG_INVALID } from "../errors.js";
import type { StorageDriver } from "./driver.js";
import { guardList } from "./guard.js";
import { checkKey } from "./keys.js";
import { ListCursor, MAX_PAGE_SIZE, type StorageListing, type StorageListOptions } from "./listing.js";
import type { BucketCheck } from "./missing-bucket.js";

/** The `list` of a storage over `driver` (cursors signed with `secret`). */
export function storageLister(
  driver: StorageDriver,
  secret: string,
  bucketCheck: BucketCheck,
): (folder?: string, listOptions?: StorageListOptions) => Promise<StorageListing> {
  const cursors = new ListCursor(secret);

  /** The backend folder for a folder of the storage (`avatars` -> `prefix/avatars/`). */
  function backendFolder(folder: string): string {
    const inside = folder === "" || folder === "/" ? "" : `${checkKey(folder.replace(/\/$/, ""))}/`;
    return driver.prefix ? `${driver.prefix}/${inside}` : inside;
  }

  /** A backend key back to a storage key; undefined for one outside the folder or one storage would refuse. */
  function storageKey(backendKey: string, within: string): string | undefined {
    if (!backendKey.startsWith(within) || backendKey.length === within.length) return undefined;
    const key = driver.prefix ? backendKey.slice(driver.prefix.length + 1) : backendKey;
    try {
      return checkKey(key);
    } catch {
      // Hidden files, folder markers (`a/`) and names written by other tools: not reachable through get().
      return undefined;
    }
  }

  async function list(folder: string = "", listOptions: StorageListOptions = {}): Promise<StorageListing> {
    checkOptionKeys("storage.list()", listOptions, ["recursive", "pageSize", "cursor"]);
    if (typeof folder !== "string") throw new E_SERVICES_CONFIG_INVALID("storage.list()'s folder", "a string");
    const within = backendFolder(folder);
    const recursive = listOptions.recursive === true;
    const pageSize = listOptions.pageSize ?? MAX_PAGE_SIZE;
    if (!(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= MAX_PAGE_SIZE)) {
      throw new E_SERVICES_CONFIG_INVALID("storage.list()'s pageSize", `a whole number from 1 to ${MAX_PAGE_SIZE}`);
    }
    const token = listOptions.cursor === undefined ? undefined : cursors.read(listOptions.cursor, within, recursive);
    const page = await guardList(
      folder,
      () => driver.list(within, { recursive, pageSize, ...(token === undefined ? {} : { token }) }),
      bucketCheck,
    );
    const keys = (names: readonly string[]) =>
      names
        .map((name) => storageKey(name, within))
        .filter((key): key is string => key !== undefined)
        .sort();
    const listing = { files: keys(page.files), folders: keys(page.folders) };
    return page.token ? { ...listing, cursor: cursors.make(within, recursive, page.token) } : listing;
  }
  return list;
}
