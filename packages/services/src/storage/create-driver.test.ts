import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createStorageDriver } from "./create-driver.js";
import { LocalDriver } from "./drivers/local.js";
import { S3StorageDriver } from "./drivers/s3.js";

const context = { root: "/srv/app", secret: "s", publicPath: "/uploads" };

describe("storage driver from one URL", () => {
  test("file: URLs resolve relative folders against the app root", () => {
    const relative = createStorageDriver("file:data/uploads", context) as LocalDriver;
    assert.equal(relative.directory, "/srv/app/data/uploads");
    assert.equal(relative.visibility, "private");
    assert.equal((createStorageDriver("file:/var/files?visibility=public", context) as LocalDriver).directory, "/var/files");
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

  test("bad storage URLs are refused with E_SERVICE_URL_INVALID", () => {
    for (const url of ["ftp://x/y", "file:", "file:x?visibility=world", "file:x?typo=1", "s3://A/x", "s3://bucket/a%5Cb", "s3://bucket?nope=1"]) {
      assert.throws(() => createStorageDriver(url, context), { code: "E_SERVICE_URL_INVALID" }, url);
    }
  });
});
