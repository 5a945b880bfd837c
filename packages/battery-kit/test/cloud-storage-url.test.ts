import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readAzureBlobUrl, readGcsUrl } from "../src/cloud-storage-url.js";

const fail = (reason: string): never => {
  throw new Error(reason);
};
const KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

describe("gs:// URLs", () => {
  test("keys from the URL, Google's XML endpoint and region auto by default", () => {
    const location = readGcsUrl(new URL("gs://GOOG1EXAMPLE:s%2Fecret@my-bucket/uploads/avatars/"), fail, {});
    assert.deepEqual(location, {
      bucket: "my-bucket",
      prefix: "uploads/avatars",
      endpoint: "https://storage.googleapis.com",
      region: "auto",
      credentials: { accessKeyId: "GOOG1EXAMPLE", secretAccessKey: "s/ecret" },
    });
  });

  test("keys from GCS_HMAC_ACCESS_ID and GCS_HMAC_SECRET; the endpoint can be overridden", () => {
    const location = readGcsUrl(new URL("gs://b-1/x?endpoint=http://127.0.0.1:9000/"), fail, {
      GCS_HMAC_ACCESS_ID: "id",
      GCS_HMAC_SECRET: "secret",
    });
    assert.equal(location.endpoint, "http://127.0.0.1:9000");
    assert.deepEqual(location.credentials, { accessKeyId: "id", secretAccessKey: "secret" });
  });

  test("no HMAC key, a bad bucket name, a bad endpoint or an unsafe prefix fail at start-up with the reason", () => {
    assert.throws(
      () => readGcsUrl(new URL("gs://bucket/x"), fail, {}),
      /needs an HMAC key.*GCS_HMAC_ACCESS_ID.*gcloud storage hmac create/,
    );
    assert.throws(() => readGcsUrl(new URL("gs://a:b@B_/x"), fail, {}), /not a Cloud Storage bucket name/);
    assert.throws(() => readGcsUrl(new URL("gs://a:b@bucket/x?endpoint=ftp://h"), fail, {}), /http:\/\/ or https:\/\//);
    assert.throws(() => readGcsUrl(new URL("gs://a:b@bucket/a//b"), fail, {}), /not a safe folder name/);
  });
});

describe("azblob:// URLs", () => {
  test("account and key from the URL; the endpoint defaults to the account's blob service", () => {
    const location = readAzureBlobUrl(new URL(`azblob://acct:${encodeURIComponent(KEY)}@uploads/site`), fail, {});
    assert.deepEqual(location, {
      container: "uploads",
      prefix: "site",
      account: "acct",
      accountKey: KEY,
      endpoint: "https://acct.blob.core.windows.net",
    });
  });

  test("AZURE_STORAGE_CONNECTION_STRING, then AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY", () => {
    const fromString = readAzureBlobUrl(new URL("azblob://uploads"), fail, {
      AZURE_STORAGE_CONNECTION_STRING: `DefaultEndpointsProtocol=http;AccountName=dev;AccountKey=${KEY};BlobEndpoint=http://127.0.0.1:10000/dev;`,
    });
    assert.deepEqual(
      [fromString.account, fromString.endpoint, fromString.prefix],
      ["dev", "http://127.0.0.1:10000/dev", ""],
    );
    const suffix = readAzureBlobUrl(new URL("azblob://uploads"), fail, {
      AZURE_STORAGE_CONNECTION_STRING: `AccountName=dev;AccountKey=${KEY};EndpointSuffix=core.windows.net`,
    });
    assert.equal(suffix.endpoint, "https://dev.blob.core.windows.net");
    const pair = readAzureBlobUrl(new URL("azblob://uploads"), fail, {
      AZURE_STORAGE_ACCOUNT: "pair",
      AZURE_STORAGE_KEY: KEY,
    });
    assert.deepEqual([pair.account, pair.accountKey], ["pair", KEY]);
  });

  test("no credentials, a bad container or a key that is not base64 fail with the reason", () => {
    assert.throws(() => readAzureBlobUrl(new URL("azblob://uploads"), fail, {}), /AZURE_STORAGE_CONNECTION_STRING/);
    assert.throws(
      () => readAzureBlobUrl(new URL(`azblob://a:${encodeURIComponent(KEY)}@Up--loads`), fail, {}),
      /not an Azure container name/,
    );
    assert.throws(() => readAzureBlobUrl(new URL("azblob://a:not%20base64@uploads"), fail, {}), /not base64/);
  });
});
