import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createStorageDriver } from "../../src/storage/create-driver.js";
import type { LocalDriver } from "../../src/storage/drivers/local.js";
import { AzureStorageDriver } from "../../src/storage/drivers/azure.js";
import { S3StorageDriver } from "../../src/storage/drivers/s3.js";

const context = { root: "/srv/app", secret: "s", publicPath: "/uploads" };

describe("storage driver from one URL", () => {
  test("file: URLs resolve relative folders against the app root", () => {
    const relative = createStorageDriver("file:data/uploads", context) as LocalDriver;
    assert.equal(relative.directory, "/srv/app/data/uploads");
    assert.equal(relative.visibility, "private");
    assert.equal(
      (createStorageDriver("file:/var/files?visibility=public", context) as LocalDriver).directory,
      "/var/files",
    );
    assert.equal((createStorageDriver("file:///var/files", context) as LocalDriver).directory, "/var/files");
  });

  test("the disk is made at the first file operation, not with the driver", async () => {
    const driver = createStorageDriver("file:data/uploads", context);
    assert.throws(() => driver.disk, { code: "E_SERVICE_NOT_CONFIGURED", message: /await driver\.openDisk\(\)/ });
    const disk = await driver.openDisk();
    assert.equal(driver.disk, disk);
    assert.equal(await driver.openDisk(), disk, "later calls give the same disk");
    driver.close();
  });

  test("s3:// URLs give bucket, prefix, region, endpoint and credentials", async () => {
    const driver = createStorageDriver(
      "s3://AK:se%2Fcret@my-bucket/app/files/?endpoint=http://127.0.0.1:9000&region=eu-west-3&forcePathStyle=true&visibility=public",
      context,
    ) as S3StorageDriver;
    assert.ok(driver instanceof S3StorageDriver);
    assert.equal(driver.prefix, "app/files");
    assert.equal(driver.visibility, "public");
    assert.equal(await driver.client.config.region(), "eu-west-3");
    assert.equal(driver.client.config.forcePathStyle, true);
    assert.equal((await driver.client.config.credentials()).secretAccessKey, "se/cret");
    assert.equal(await driver.url("app/files/a.txt"), "http://127.0.0.1:9000/my-bucket/app/files/a.txt");
    driver.close();
  });

  test("gs:// URLs reach Cloud Storage's XML API with an HMAC key, path-style, without ACLs by default", async () => {
    const driver = createStorageDriver("gs://GOOG1ID:hmac%2Fsecret@my-bucket/site/files", context) as S3StorageDriver;
    assert.ok(driver instanceof S3StorageDriver);
    assert.equal(driver.kind, "gcs");
    assert.equal(driver.prefix, "site/files");
    assert.equal(await driver.client.config.region(), "auto");
    assert.equal(driver.client.config.forcePathStyle, true);
    assert.equal((await driver.client.config.credentials()).secretAccessKey, "hmac/secret");
    assert.equal(await driver.url("site/files/a.txt"), "https://storage.googleapis.com/my-bucket/site/files/a.txt");
    driver.close();
  });

  test("azblob:// URLs name the container and prefix; the account key stays out of every message", () => {
    const key = Buffer.from("not-a-real-account-key").toString("base64");
    const driver = createStorageDriver(
      `azblob://acct:${encodeURIComponent(key)}@uploads/site`,
      context,
    ) as AzureStorageDriver;
    assert.ok(driver instanceof AzureStorageDriver);
    assert.equal(driver.container.url, "https://acct.blob.core.windows.net/uploads");
    assert.equal(driver.prefix, "site");
    for (const bad of [
      `azblob://acct:${encodeURIComponent(key)}@Bad--Name/x`,
      `azblob://acct:${encodeURIComponent(key)}@uploads/x?typo=1`,
    ]) {
      assert.throws(
        () => createStorageDriver(bad, context),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "E_SERVICE_URL_INVALID");
          assert.ok(!error.message.includes(encodeURIComponent(key)) && !error.message.includes(key), error.message);
          assert.match(error.message, /acct:\*\*\*@/);
          return true;
        },
      );
    }
  });

  test("gs:// without an HMAC key and azblob:// without an account key fail at start-up, saying where keys come from", () => {
    const saved = { ...process.env };
    for (const name of [
      "GCS_HMAC_ACCESS_ID",
      "GCS_HMAC_SECRET",
      "AZURE_STORAGE_CONNECTION_STRING",
      "AZURE_STORAGE_ACCOUNT",
      "AZURE_STORAGE_KEY",
    ])
      delete process.env[name];
    try {
      assert.throws(() => createStorageDriver("gs://bucket/x", context), {
        code: "E_SERVICE_URL_INVALID",
        message: /GCS_HMAC_ACCESS_ID/,
      });
      assert.throws(() => createStorageDriver("azblob://uploads/x", context), {
        code: "E_SERVICE_URL_INVALID",
        message: /AZURE_STORAGE_CONNECTION_STRING/,
      });
    } finally {
      Object.assign(process.env, saved);
    }
  });

  test("bad storage URLs are refused with E_SERVICE_URL_INVALID", () => {
    for (const url of [
      "ftp://x/y",
      "file:",
      "file:x?visibility=world",
      "file:x?typo=1",
      "s3://A/x",
      "s3://bucket/a%5Cb",
      "s3://bucket?nope=1",
    ]) {
      assert.throws(() => createStorageDriver(url, context), { code: "E_SERVICE_URL_INVALID" }, url);
    }
  });
});
