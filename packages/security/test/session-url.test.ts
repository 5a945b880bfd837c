import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseSessionUrl, redactUrl } from "../src/session-url.js";

describe("parseSessionUrl", () => {
  test("cookie sessions by default", () => {
    for (const url of ["", "cookie", "cookie:"]) assert.deepEqual(parseSessionUrl(url), { kind: "cookie" });
    assert.deepEqual(parseSessionUrl("memory:"), { kind: "memory" });
  });

  test("redis keeps the URL and takes the key prefix from ?prefix=", () => {
    assert.deepEqual(parseSessionUrl("redis://127.0.0.1:6379/2?prefix=app:"), {
      kind: "redis",
      url: "redis://127.0.0.1:6379/2",
      prefix: "app:",
    });
    assert.equal((parseSessionUrl("rediss://h:1/0") as { prefix: string }).prefix, "sess:");
  });

  test("SQL URLs: postgres, postgresql, mysql and mariadb, with ?table=", () => {
    assert.deepEqual(parseSessionUrl("postgres://u:p@127.0.0.1:5432/db?table=web_sessions"), {
      kind: "postgres",
      connection: "postgres://u:p@127.0.0.1:5432/db",
      table: "web_sessions",
    });
    assert.equal(parseSessionUrl("postgresql://127.0.0.1/db").kind, "postgres");
    assert.deepEqual(parseSessionUrl("mariadb://root@127.0.0.1:3306/test"), {
      kind: "mysql",
      connection: "mysql://root@127.0.0.1:3306/test",
      table: "sessions",
    });
    assert.throws(() => parseSessionUrl("mysql://h/db?table=x;drop"), { code: "E_SESSION_URL_INVALID" });
  });

  test("sqlite paths: relative to the app root, absolute, or in memory", () => {
    assert.deepEqual(parseSessionUrl("sqlite:data/s.db", "/app"), {
      kind: "sqlite",
      filename: "/app/data/s.db",
      table: "sessions",
    });
    assert.deepEqual(parseSessionUrl("sqlite:///var/s.db?table=t", "/app"), {
      kind: "sqlite",
      filename: "/var/s.db",
      table: "t",
    });
    assert.equal((parseSessionUrl("sqlite::memory:") as { filename: string }).filename, ":memory:");
    assert.throws(() => parseSessionUrl("sqlite:"), { code: "E_SESSION_URL_INVALID" });
  });

  test("gs: Cloud Storage's XML API with an HMAC key from the URL or GCS_HMAC_ACCESS_ID/GCS_HMAC_SECRET", () => {
    assert.deepEqual(parseSessionUrl("gs://GOOG1ID:se%2Fcret@my-bucket/app/sessions"), {
      kind: "gcs",
      bucket: "my-bucket",
      prefix: "app/sessions",
      region: "auto",
      endpoint: "https://storage.googleapis.com",
      forcePathStyle: true,
      credentials: { accessKeyId: "GOOG1ID", secretAccessKey: "se/cret" },
    });
    const saved = { id: process.env["GCS_HMAC_ACCESS_ID"], secret: process.env["GCS_HMAC_SECRET"] };
    delete process.env["GCS_HMAC_ACCESS_ID"];
    delete process.env["GCS_HMAC_SECRET"];
    try {
      assert.throws(() => parseSessionUrl("gs://my-bucket/x"), {
        code: "E_SESSION_URL_INVALID",
        message: /GCS_HMAC_ACCESS_ID/,
      });
      process.env["GCS_HMAC_ACCESS_ID"] = "envid";
      process.env["GCS_HMAC_SECRET"] = "envsecret";
      assert.equal(
        (parseSessionUrl("gs://my-bucket/x") as { credentials: { accessKeyId: string } }).credentials.accessKeyId,
        "envid",
      );
    } finally {
      for (const [name, value] of [
        ["GCS_HMAC_ACCESS_ID", saved.id],
        ["GCS_HMAC_SECRET", saved.secret],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  test("azblob: container, prefix, account and key; the key never appears in an error", () => {
    const key = Buffer.from("a-test-account-key").toString("base64");
    const parsed = parseSessionUrl(
      `azblob://acct:${encodeURIComponent(key)}@sessions/app?endpoint=http://127.0.0.1:10000/acct`,
    );
    assert.deepEqual(parsed, {
      kind: "azblob",
      location: {
        container: "sessions",
        prefix: "app",
        account: "acct",
        accountKey: key,
        endpoint: "http://127.0.0.1:10000/acct",
      },
    });
    for (const bad of [
      `azblob://acct:${encodeURIComponent(key)}@No_Such/x`,
      `azblob://acct:${encodeURIComponent(key)}@sessions/x?table=t`,
    ]) {
      assert.throws(
        () => parseSessionUrl(bad),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "E_SESSION_URL_INVALID");
          assert.ok(!error.message.includes(encodeURIComponent(key)) && !error.message.includes(key), error.message);
          return true;
        },
      );
    }
  });

  test("s3: bucket, prefix, endpoint, region and credentials", () => {
    assert.deepEqual(
      parseSessionUrl("s3://KEY:SEC%2Fret@my-bucket/app/sessions/?endpoint=http://127.0.0.1:9000&region=eu-west-1"),
      {
        kind: "s3",
        bucket: "my-bucket",
        prefix: "app/sessions",
        region: "eu-west-1",
        endpoint: "http://127.0.0.1:9000",
        forcePathStyle: true,
        credentials: { accessKeyId: "KEY", secretAccessKey: "SEC/ret" },
      },
    );
    const aws = parseSessionUrl("s3://bucket-name") as {
      forcePathStyle: boolean;
      credentials: unknown;
      prefix: string;
    };
    assert.deepEqual([aws.forcePathStyle, aws.credentials, aws.prefix], [false, undefined, ""]);
    assert.throws(() => parseSessionUrl("s3://B_ad/x"), { code: "E_SESSION_URL_INVALID" });
    assert.throws(() => parseSessionUrl("s3://bucket/x?endpoint=ftp://h"), { code: "E_SESSION_URL_INVALID" });
  });

  test("unknown schemes and non-URLs are start-up errors that do not leak the password", () => {
    assert.throws(
      () => parseSessionUrl("mongodb://user:hunter2@h/db"),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_SESSION_URL_INVALID");
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
    assert.throws(() => parseSessionUrl("not a url"), { code: "E_SESSION_URL_INVALID" });
    assert.equal(redactUrl("redis://:pw@h:1/0"), "redis://:***@h:1/0");
  });
});
