/**
 * Storage backend calls, guarded: a backend's failure becomes a coded error (a missing file 404,
 * a missing bucket 503, anything else `E_STORAGE_FAILED` with its root reason), traced when observed.
 */
import { telemetry, traceCall } from "@fwkit/battery-kit";
import { FrameworkError } from "routing-kernel";
import { E_STORAGE_FAILED, E_STORAGE_NOT_FOUND } from "../errors.js";
import type { BucketCheck } from "./missing-bucket.js";

function isNotFound(error: unknown): boolean {
  for (let current = error as { cause?: unknown } | undefined, depth = 0; current && depth < 5; depth++) {
    const e = current as {
      code?: unknown;
      name?: unknown;
      statusCode?: unknown;
      $metadata?: { httpStatusCode?: number };
    };
    if (
      e.code === "ENOENT" ||
      e.code === "ENOTDIR" ||
      e.name === "NoSuchKey" ||
      e.name === "NotFound" ||
      e.$metadata?.httpStatusCode === 404
    )
      return true;
    // The Azure SDK's RestError ("BlobNotFound", "ContainerNotFound").
    if (e.name === "RestError" && e.statusCode === 404) return true;
    current = current.cause as { cause?: unknown } | undefined;
  }
  return false;
}

function rootReason(error: unknown): string {
  let current = error as { cause?: unknown; message?: unknown };
  while (current.cause && typeof current.cause === "object") current = current.cause as typeof current;
  return String(current.message ?? error);
}

/**
 * Runs a backend call, turning its failures into coded errors (ours pass through). A missing
 * bucket or container is checked first: the backends answer it with a 404 too, but it is the
 * deployment's mistake (503), never "no stored file".
 */
export async function guard<T>(
  operation: string,
  key: string,
  call: () => Promise<T>,
  bucket: BucketCheck,
): Promise<T> {
  try {
    // A traced operation (a span, the storage metrics) when observed; the call alone otherwise.
    return await traceCall(telemetry.storage, () => ({ operation }), call);
  } catch (error) {
    if (error instanceof FrameworkError) throw error;
    const missing = bucket(operation, key, error);
    if (missing) throw missing;
    if (isNotFound(error)) throw new E_STORAGE_NOT_FOUND(key);
    throw Object.assign(new E_STORAGE_FAILED(operation, key, rootReason(error)), { cause: error });
  }
}

/** Runs a listing, turning a backend failure into `E_STORAGE_FAILED` (a missing bucket is not a missing file). */
export async function guardList<T>(folder: string, call: () => Promise<T>, bucket: BucketCheck): Promise<T> {
  const shown = folder === "" ? "/" : folder;
  try {
    return await traceCall(telemetry.storage, () => ({ operation: "list" }), call);
  } catch (error) {
    if (error instanceof FrameworkError) throw error;
    throw (
      bucket("list", shown, error) ??
      Object.assign(new E_STORAGE_FAILED("list", shown, rootReason(error)), { cause: error })
    );
  }
}
