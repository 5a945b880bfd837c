// A storage URL naming a bucket or container that does not exist is the deployment's mistake: put
// and uploads answer 503 E_STORAGE_BUCKET_MISSING naming the bucket and what to do, logged at error
// level once (not per request), never 404 "No stored file is named <the key just generated>". A
// missing object in an existing bucket stays a 404. Against s3rver and Azurite.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startAzurite, startS3, type S3Server } from "@fwkit/test-servers";
import { isOutageReported } from "@fwkit/battery-kit";
import { createStorage, type Storage } from "../../src/storage/storage.js";

interface Line {
  readonly details: Record<string, unknown>;
  readonly message: string;
}

/** A logger that keeps its error lines. */
function recorder(): {
  lines: Line[];
  logger: { error(d: object, m: string): void; warn(d: object, m: string): void };
} {
  const lines: Line[] = [];
  return {
    lines,
    logger: {
      error: (details, message) => lines.push({ details: details as Record<string, unknown>, message }),
      warn: () => {},
    },
  };
}

async function upload(dir: string): Promise<{ filepath: string; originalFilename: string; mimetype: string }> {
  const filepath = join(dir, `upload-${Date.now()}`);
  await writeFile(filepath, "hello");
  return { filepath, originalFilename: "hello.txt", mimetype: "text/plain" };
}

const backends = [
  {
    name: "s3:// on s3rver",
    place: /S3 bucket "no-such-bucket"/,
    action: /aws s3 mb s3:\/\/no-such-bucket/,
    async start() {
      const s3: S3Server = await startS3(["present-bucket"]);
      const url = (bucket: string) =>
        `s3://${s3.accessKeyId}:${s3.secretAccessKey}@${bucket}/p?endpoint=${s3.endpoint}&region=us-east-1&forcePathStyle=true`;
      return { missing: url("no-such-bucket"), present: url("present-bucket"), stop: () => s3.close() };
    },
  },
  {
    name: "azblob:// on Azurite",
    place: /Azure container "no-such-bucket"/,
    action: /az storage container create --name no-such-bucket/,
    async start() {
      const azurite = await startAzurite();
      const { BlobServiceClient } = await import("@azure/storage-blob");
      await BlobServiceClient.fromConnectionString(azurite.connectionString)
        .getContainerClient("present-bucket")
        .create();
      const url = (container: string) =>
        `azblob://${azurite.account}:${encodeURIComponent(azurite.key)}@${container}/p?endpoint=${encodeURIComponent(azurite.blobEndpoint)}`;
      return { missing: url("no-such-bucket"), present: url("present-bucket"), stop: () => azurite.close() };
    },
  },
];

for (const backend of backends) {
  describe(`a missing bucket: ${backend.name}`, () => {
    let started: Awaited<ReturnType<(typeof backends)[number]["start"]>>;
    let dir = "";
    before(async () => {
      started = await backend.start();
      dir = await mkdtemp(join(tmpdir(), "missing-bucket-"));
    });
    after(async () => {
      await started?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    const isBucketMissing = (error: Error & { code?: string; status?: number }) => {
      assert.equal(error.code, "E_STORAGE_BUCKET_MISSING", error.message);
      assert.equal(error.status, 503);
      assert.match(error.message, backend.place);
      assert.match(error.message, backend.action);
      assert.doesNotMatch(error.message, /No stored file/);
      assert.ok(isOutageReported(error), "logged by storage, so the host does not log it per request");
      return true;
    };

    test("put, storeUpload, get, getBytes, delete and list answer 503 naming the bucket; one error line is logged", async () => {
      const { lines, logger } = recorder();
      const storage: Storage = createStorage({ url: started.missing, root: dir, secret: "s", logger });
      try {
        await assert.rejects(storage.put("notes/a.txt", "hello"), isBucketMissing);
        await assert.rejects(storage.storeUpload(await upload(dir)), isBucketMissing);
        await assert.rejects(storage.getBytes("notes/a.txt"), isBucketMissing);
        await assert.rejects(storage.get("notes/a.txt"), isBucketMissing);
        await assert.rejects(storage.delete("notes/a.txt"), isBucketMissing);
        await assert.rejects(storage.list("notes"), isBucketMissing);
        assert.equal(lines.length, 1, "one line, not one per failed call");
        assert.equal(lines[0]!.details["bucket"], "no-such-bucket");
        assert.match(lines[0]!.message, backend.place);
        assert.match(lines[0]!.message, backend.action);
      } finally {
        storage.close();
      }
    });

    test("a missing object in a bucket that exists is still 404 E_STORAGE_NOT_FOUND, not logged", async () => {
      const { lines, logger } = recorder();
      const storage: Storage = createStorage({ url: started.present, root: dir, secret: "s", logger });
      try {
        await assert.rejects(storage.getBytes("notes/nothing-here.txt"), { code: "E_STORAGE_NOT_FOUND", status: 404 });
        await assert.rejects(storage.get("notes/nothing-here.txt"), { code: "E_STORAGE_NOT_FOUND", status: 404 });
        const stored = await storage.storeUpload(await upload(dir));
        assert.equal(new TextDecoder().decode(await storage.getBytes(stored.key)), "hello");
        assert.deepEqual(lines, []);
      } finally {
        storage.close();
      }
    });
  });
}
