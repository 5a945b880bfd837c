import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { E_STORAGE_TOO_LARGE, E_STORAGE_TYPE_NOT_ALLOWED } from "../errors.js";

/** The upload limits from config (`storage.maxBytes`, `storage.allowedTypes`). */
export interface StorageLimits {
  /** Largest file accepted, in bytes (413 above it). */
  readonly maxBytes: number;
  /** Accepted MIME types, exact (`application/pdf`) or by family (`image/*`); empty means any (415 otherwise). */
  readonly allowedTypes: readonly string[];
}

/** 10 MiB and any type. */
export const DEFAULT_LIMITS: StorageLimits = { maxBytes: 10 * 1024 * 1024, allowedTypes: [] };

/** Throws `E_STORAGE_TOO_LARGE` (413) when `size` is over the limit. */
export function checkSize(size: number, limits: StorageLimits): void {
  if (size > limits.maxBytes) throw new E_STORAGE_TOO_LARGE(limits.maxBytes);
}

/** Returns the normalised type (no parameters, lower case) or throws `E_STORAGE_TYPE_NOT_ALLOWED` (415). */
export function checkType(contentType: string, limits: StorageLimits): string {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  if (limits.allowedTypes.length === 0) return type || "application/octet-stream";
  const allowed = limits.allowedTypes.some((pattern) => {
    const wanted = pattern.toLowerCase();
    return wanted.endsWith("/*") ? type.startsWith(wanted.slice(0, -1)) : type === wanted;
  });
  if (!allowed) throw new E_STORAGE_TYPE_NOT_ALLOWED(type || "(none)", limits.allowedTypes.join(", "));
  return type;
}

/** A stream copied to a temporary file, with its size, to be written to storage whole or not at all. */
export interface Spooled {
  readonly path: string;
  readonly size: number;
  /** Removes the temporary file. */
  remove(): Promise<void>;
}

/**
 * Copies a stream to a temporary file, failing with `E_STORAGE_TOO_LARGE` as soon as it passes
 * the limit. Nothing reaches the backend until the whole stream is known to fit, and object
 * storage gets the length it needs.
 */
export async function spool(stream: Readable, limits: StorageLimits): Promise<Spooled> {
  const directory = await mkdtemp(join(tmpdir(), "services-spool-"));
  const path = join(directory, "data");
  const remove = () => rm(directory, { recursive: true, force: true });
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > limits.maxBytes) callback(new E_STORAGE_TOO_LARGE(limits.maxBytes));
      else callback(null, chunk);
    },
  });
  try {
    await pipeline(stream, counter, createWriteStream(path));
  } catch (error) {
    await remove();
    throw error;
  }
  return { path, size, remove };
}
