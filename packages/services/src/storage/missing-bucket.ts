/**
 * A missing bucket (S3, Cloud Storage) or container (Azure) is the deployment's mistake, not a
 * missing file: the backends answer it with a 404 like a missing object, so it is told apart here,
 * answered 503 `E_STORAGE_BUCKET_MISSING` naming the bucket and what to do, and logged at error level.
 */
import { markOutageReported } from "@fwkit/battery-kit";
import { E_STORAGE_BUCKET_MISSING } from "../errors.js";
import type { ServiceLogger } from "../logger.js";
import type { StorageDriver } from "./driver.js";

/** True when the backend says the bucket (S3 `NoSuchBucket`) or container (Azure `ContainerNotFound`) is missing. */
function isBucketMissing(error: unknown): boolean {
  for (let current = error as { cause?: unknown } | undefined, depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; name?: unknown; Code?: unknown; details?: { errorCode?: unknown } };
    if (e.name === "NoSuchBucket" || e.Code === "NoSuchBucket") return true;
    if (e.code === "ContainerNotFound" || e.details?.errorCode === "ContainerNotFound") return true;
    current = current.cause as { cause?: unknown } | undefined;
  }
  return false;
}

/** What an operator does about a missing bucket of each backend. */
const CREATE_BUCKET: Record<string, (name: string) => string> = {
  s3: (name) =>
    `Create the bucket (\`aws s3 mb s3://${name}\`, or your S3 service's console) or correct the storage URL (storageUrl).`,
  gcs: (name) =>
    `Create the bucket (\`gcloud storage buckets create gs://${name}\`) or correct the storage URL (storageUrl).`,
  azure: (name) =>
    `Create the container (\`az storage container create --name ${name}\`, or the portal) or correct the storage URL (storageUrl).`,
};

/** How often the missing-bucket line repeats while requests keep failing (not once per request). */
const BUCKET_LOG_EVERY_MS = 60_000;

/** Turns a backend failure into `E_STORAGE_BUCKET_MISSING` when it is one; undefined for any other failure. */
export type BucketCheck = (operation: string, key: string, error: unknown) => Error | undefined;

/**
 * The {@link BucketCheck} of one storage: the coded error (its cause kept), logged at error level
 * at most once a minute and marked as reported, so the host's error handler does not log it again
 * for every request.
 */
export function missingBucketCheck(driver: Pick<StorageDriver, "kind" | "bucket">, logger: ServiceLogger): BucketCheck {
  let logged = -Infinity;
  return (operation, key, error) => {
    if (!driver.bucket || !isBucketMissing(error)) return undefined;
    const place =
      driver.kind === "azure" ? "Azure container" : driver.kind === "gcs" ? "Cloud Storage bucket" : "S3 bucket";
    const action = (CREATE_BUCKET[driver.kind] ?? CREATE_BUCKET["s3"]!)(driver.bucket);
    const coded = Object.assign(new E_STORAGE_BUCKET_MISSING(place, driver.bucket, operation, key, action), {
      cause: error,
    });
    if (Date.now() - logged >= BUCKET_LOG_EVERY_MS) {
      logged = Date.now();
      logger.error({ err: coded, code: coded.code, bucket: driver.bucket, storage: driver.kind }, coded.message);
    }
    return markOutageReported(coded);
  };
}
