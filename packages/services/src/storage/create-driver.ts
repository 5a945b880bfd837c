import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readAzureBlobUrl, readGcsUrl } from "@fwkit/battery-kit";
import { E_SERVICE_URL_INVALID } from "../errors.js";
import { redactUrl, tryParseUrl } from "../urls.js";
import type { StorageDriver, Visibility } from "./driver.js";
import { LocalDriver } from "./drivers/local.js";
import { AzureStorageDriver } from "./drivers/azure.js";
import { S3StorageDriver } from "./drivers/s3.js";
import { checkKey } from "./keys.js";

/** The default `storageUrl`: a folder of the app. */
export const DEFAULT_STORAGE_URL = "file:data/uploads";

/** What the URL alone does not say. */
export interface DriverContext {
  /** The app root that a relative `file:` path is resolved against. */
  readonly root: string;
  /** Signs local private links. */
  readonly secret: string;
  /** Where local files are served (`/uploads` by default). */
  readonly publicPath: string;
}

function invalid(url: string, reason: string): never {
  throw new E_SERVICE_URL_INVALID("storageUrl", redactUrl(url), reason);
}

function visibilityOf(url: string, params: URLSearchParams): Visibility {
  const value = params.get("visibility") ?? "private";
  if (value !== "public" && value !== "private") invalid(url, `visibility must be public or private, not "${value}"`);
  return value;
}

function rejectUnknown(url: string, params: URLSearchParams, known: readonly string[]): void {
  for (const key of params.keys()) {
    if (!known.includes(key)) invalid(url, `the query "${key}" is not understood (known: ${known.join(", ")})`);
  }
}

/** `file:data/uploads` (relative to the app root), `file:/abs/dir` or `file:///abs/dir`, `?visibility=`. */
function localDriver(url: string, context: DriverContext): StorageDriver {
  const [location = "", query = ""] = url.slice("file:".length).split("?", 2);
  const params = new URLSearchParams(query);
  rejectUnknown(url, params, ["visibility"]);
  if (location === "" || location === "//") invalid(url, "it names no folder");
  const directory = location.startsWith("//")
    ? fileURLToPath(`file:${location}`)
    : isAbsolute(location)
      ? location
      : resolve(context.root, decodeURIComponent(location));
  return new LocalDriver({
    directory,
    visibility: visibilityOf(url, params),
    publicPath: context.publicPath,
    secret: context.secret,
  });
}

/** `s3://[key:secret@]bucket/prefix?endpoint=&region=&forcePathStyle=&visibility=&acl=&publicUrl=` */
function s3Driver(url: string): StorageDriver {
  const parsed = tryParseUrl(url) ?? invalid(url, "it is not a URL");
  const bucket = parsed.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    invalid(url, "write the bucket name as the host, e.g. s3://my-bucket/uploads");
  const params = parsed.searchParams;
  rejectUnknown(url, params, ["endpoint", "region", "forcePathStyle", "visibility", "acl", "publicUrl"]);
  const prefix = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, ""));
  if (prefix !== "") {
    try {
      checkKey(prefix);
    } catch {
      invalid(url, `the prefix "${prefix}" is not a safe folder name`);
    }
  }
  const client: Record<string, unknown> = { region: params.get("region") ?? "us-east-1" };
  const endpoint = params.get("endpoint");
  if (endpoint) {
    client["endpoint"] = endpoint;
    // Recent AWS SDKs stream uploads as aws-chunked with trailing checksums by default, which
    // S3-compatible servers (MinIO before 2023, s3rver, some gateways) store verbatim.
    client["requestChecksumCalculation"] = "WHEN_REQUIRED";
    client["responseChecksumValidation"] = "WHEN_REQUIRED";
  }
  if (params.get("forcePathStyle") === "true") client["forcePathStyle"] = true;
  if (parsed.username) {
    client["credentials"] = {
      accessKeyId: decodeURIComponent(parsed.username),
      secretAccessKey: decodeURIComponent(parsed.password),
    };
  }
  const publicUrl = params.get("publicUrl");
  return new S3StorageDriver({
    bucket,
    prefix,
    visibility: visibilityOf(url, params),
    client,
    supportsACL: params.get("acl") !== "false",
    ...(publicUrl ? { publicUrl } : {}),
  });
}

/**
 * `gs://[ACCESS_ID:SECRET@]bucket/prefix?endpoint=&visibility=&acl=&publicUrl=`: Google Cloud
 * Storage through its S3-compatible XML API with an HMAC key, so the S3 client and flydrive's S3
 * driver serve. ACLs are off unless `acl=true`: new buckets use uniform bucket-level access, which
 * refuses per-object ACLs.
 */
function gcsDriver(url: string): StorageDriver {
  const parsed = tryParseUrl(url) ?? invalid(url, "it is not a URL");
  const params = parsed.searchParams;
  rejectUnknown(url, params, ["endpoint", "region", "visibility", "acl", "publicUrl"]);
  const location = readGcsUrl(parsed, (reason) => invalid(url, reason));
  const publicUrl = params.get("publicUrl");
  return new S3StorageDriver({
    kind: "gcs",
    bucket: location.bucket,
    prefix: location.prefix,
    visibility: visibilityOf(url, params),
    client: {
      region: location.region,
      endpoint: location.endpoint,
      // Path-style requests (endpoint/bucket/key) work for every bucket name, dotted ones included.
      forcePathStyle: true,
      credentials: { ...location.credentials },
      // The XML API does not take the SDK's default aws-chunked uploads with trailing checksums.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    },
    supportsACL: params.get("acl") === "true",
    ...(publicUrl ? { publicUrl } : {}),
  });
}

/** `azblob://[ACCOUNT:KEY@]container/prefix?endpoint=&visibility=&publicUrl=` (Azure Blob Storage). */
function azureDriver(url: string): StorageDriver {
  const parsed = tryParseUrl(url) ?? invalid(url, "it is not a URL");
  const params = parsed.searchParams;
  rejectUnknown(url, params, ["endpoint", "visibility", "publicUrl"]);
  const location = readAzureBlobUrl(parsed, (reason) => invalid(url, reason));
  const publicUrl = params.get("publicUrl");
  return new AzureStorageDriver({
    location,
    visibility: visibilityOf(url, params),
    ...(publicUrl ? { publicUrl } : {}),
  });
}

/**
 * Builds the driver a `storageUrl` names: `file:` (local disk), `s3://` (S3-compatible), `gs://`
 * (Google Cloud Storage) or `azblob://` (Azure Blob Storage).
 */
export function createStorageDriver(url: string, context: DriverContext): StorageDriver {
  if (url.startsWith("file:")) return localDriver(url, context);
  if (url.startsWith("s3://")) return s3Driver(url);
  if (url.startsWith("gs://")) return gcsDriver(url);
  if (url.startsWith("azblob://")) return azureDriver(url);
  return invalid(url, "use file:<folder>, s3://bucket/prefix, gs://bucket/prefix or azblob://container/prefix");
}
