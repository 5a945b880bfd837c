import type { Disk } from "flydrive";

/** Whether stored files are readable by anyone with their URL or only through signed links. */
export type Visibility = "public" | "private";

/**
 * One storage backend behind a flydrive `Disk`, plus what flydrive leaves to the app: how public
 * and signed URLs look. Keys given here are already checked and prefixed.
 */
export interface StorageDriver {
  /** `local` or `s3`. */
  readonly kind: string;
  /** The flydrive disk doing the I/O. */
  readonly disk: Disk;
  /** The default visibility of new files. */
  readonly visibility: Visibility;
  /** Prefix put before every key inside the backend (`""` for none). */
  readonly prefix: string;
  /** The URL of a public file. */
  url(key: string): Promise<string>;
  /** A link to a private file that works for `seconds`. */
  signedUrl(key: string, seconds: number): Promise<string>;
  /** Releases connections. */
  close(): void;
}

/** Encodes each `/`-separated name of a key for use in a URL path. */
export function keyToPath(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}
