/**
 * Reads the cloud object-storage URLs that both file storage (services) and sessions (security)
 * accept, so the two batteries agree on one syntax and one credential lookup: `gs://` (Google
 * Cloud Storage through its S3-compatible XML API with HMAC keys) and `azblob://` (Azure Blob
 * Storage). Each caller turns `fail(reason)` into its own coded error and checks its own query keys.
 */

/** Where a `gs://` URL points, as an S3 client needs it. */
export interface GcsLocation {
  readonly bucket: string;
  /** Key prefix without slashes at either end ("" for the bucket root). */
  readonly prefix: string;
  /** `https://storage.googleapis.com` unless `?endpoint=` overrides it. */
  readonly endpoint: string;
  /** Google ignores the region of a SigV4 signature made with HMAC keys; `auto` is what it documents. */
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** Where an `azblob://` URL points. */
export interface AzureBlobLocation {
  readonly container: string;
  /** Blob name prefix without slashes at either end. */
  readonly prefix: string;
  readonly account: string;
  /** The account key (base64), used for requests and to sign SAS links. */
  readonly accountKey: string;
  /** The blob service URL (`https://ACCOUNT.blob.core.windows.net`, or Azurite's). */
  readonly endpoint: string;
}

type Env = Readonly<Record<string, string | undefined>>;
type Fail = (reason: string) => never;

/** The environment variables read for Google HMAC keys (Google defines none of its own for them). */
export const GCS_ENV = { accessId: "GCS_HMAC_ACCESS_ID", secret: "GCS_HMAC_SECRET" } as const;

function prefixOf(url: URL, fail: Fail): string {
  let prefix: string;
  try {
    prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, "");
  } catch {
    return fail("the path is not valid percent-encoding");
  }
  if (prefix.split("/").some((part) => part === "" || part === "." || part === "..") && prefix !== "") {
    fail(`the prefix "${prefix}" is not a safe folder name`);
  }
  return prefix;
}

function endpointOf(url: URL, fail: Fail): string | undefined {
  const endpoint = url.searchParams.get("endpoint") ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) fail("endpoint must be an http:// or https:// URL");
  return endpoint?.replace(/\/+$/, "");
}

/** Reads `gs://[ACCESS_ID:SECRET@]bucket/prefix[?endpoint=]`; keys from the URL or GCS_HMAC_ACCESS_ID/GCS_HMAC_SECRET. */
export function readGcsUrl(url: URL, fail: Fail, env: Env = process.env): GcsLocation {
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/.test(bucket))
    fail(`"${bucket}" is not a Cloud Storage bucket name; write it as the host, e.g. gs://my-bucket/uploads`);
  const accessKeyId = url.username ? decodeURIComponent(url.username) : env[GCS_ENV.accessId];
  const secretAccessKey = url.username ? decodeURIComponent(url.password) : env[GCS_ENV.secret];
  if (!accessKeyId || !secretAccessKey) {
    fail(
      `Cloud Storage needs an HMAC key: write it in the URL (gs://ACCESS_ID:SECRET@bucket/prefix) or set ${GCS_ENV.accessId} and ${GCS_ENV.secret} (create one with: gcloud storage hmac create SERVICE_ACCOUNT_EMAIL)`,
    );
  }
  return {
    bucket,
    prefix: prefixOf(url, fail),
    endpoint: endpointOf(url, fail) ?? "https://storage.googleapis.com",
    region: url.searchParams.get("region") ?? "auto",
    credentials: { accessKeyId, secretAccessKey },
  };
}

/** The `Key=Value;...` pairs of an Azure connection string. */
function connectionString(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const part of text.split(";")) {
    const at = part.indexOf("=");
    if (at > 0) pairs.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return pairs;
}

/**
 * Reads `azblob://[ACCOUNT:KEY@]container/prefix[?endpoint=]`. Without credentials in the URL, the
 * Azure tools' variables apply: AZURE_STORAGE_CONNECTION_STRING, else AZURE_STORAGE_ACCOUNT and
 * AZURE_STORAGE_KEY.
 */
export function readAzureBlobUrl(url: URL, fail: Fail, env: Env = process.env): AzureBlobLocation {
  const container = url.hostname;
  if (!/^(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(container)) {
    fail(
      `"${container}" is not an Azure container name (3-63 lowercase letters, digits and single hyphens); write it as the host, e.g. azblob://uploads/prefix`,
    );
  }
  let account: string | undefined;
  let accountKey: string | undefined;
  let endpoint = endpointOf(url, fail);
  if (url.username) {
    account = decodeURIComponent(url.username);
    accountKey = decodeURIComponent(url.password);
  } else if (env["AZURE_STORAGE_CONNECTION_STRING"]) {
    const pairs = connectionString(env["AZURE_STORAGE_CONNECTION_STRING"]);
    account = pairs.get("AccountName");
    accountKey = pairs.get("AccountKey");
    const fromString = pairs.get("BlobEndpoint");
    const suffix = pairs.get("EndpointSuffix");
    endpoint ??=
      fromString?.replace(/\/+$/, "") ??
      (suffix && account
        ? `${pairs.get("DefaultEndpointsProtocol") ?? "https"}://${account}.blob.${suffix}`
        : undefined);
  } else {
    account = env["AZURE_STORAGE_ACCOUNT"];
    accountKey = env["AZURE_STORAGE_KEY"];
  }
  if (!account || !accountKey) {
    fail(
      "Azure Blob Storage needs the account name and key: write them in the URL (azblob://ACCOUNT:KEY@container/prefix, the key percent-encoded) or set AZURE_STORAGE_CONNECTION_STRING, or AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY",
    );
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(accountKey))
    fail("the account key is not base64 (percent-encode + / and = in the URL: %2B %2F %3D)");
  return {
    container,
    prefix: prefixOf(url, fail),
    account,
    accountKey,
    endpoint: endpoint ?? `https://${account}.blob.core.windows.net`,
  };
}
