import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { after, before, describe, test } from "node:test";
import { freePort, startAzurite, startS3, type S3Server } from "@fwkit/test-servers";
import { serve, type TestApp } from "../helpers.js";
import type { FileStoredPayload } from "../../src/signals/names.js";
import { SignalRegistry } from "../../src/signals/signal.js";
import { serveStorage } from "../../src/storage/serve.js";
import { createStorage, type Storage, type StorageOptions } from "../../src/storage/storage.js";

/** One backend the shared suite runs against. */
interface Backend {
  readonly name: string;
  /** Starts what the backend needs; returns the storage URL and a cleanup. */
  start(): Promise<{ url: string; stop(): Promise<void>; outside?: string; publicUrl?: string }>;
  /**
   * Whether the server checks link signatures and refuses plain URLs of private files. s3rver
   * does neither (SigV4 "calculation is unimplemented" and no ACL checks, in its
   * lib/middleware/authentication.js), so for it the suite checks the link's shape instead.
   */
  readonly enforcesSignatures: boolean;
}

const backends: Backend[] = [
  {
    name: "local disk",
    enforcesSignatures: true,
    async start() {
      const parent = await mkdtemp(join(tmpdir(), "services-storage-"));
      return {
        url: `file:${join(parent, "uploads")}`,
        outside: parent,
        stop: () => rm(parent, { recursive: true, force: true }),
      };
    },
  },
  {
    name: "s3rver",
    enforcesSignatures: false,
    async start() {
      const bucket = "services-storage-test";
      const s3: S3Server = await startS3([bucket]);
      return {
        url: `s3://${s3.accessKeyId}:${s3.secretAccessKey}@${bucket}/suite?endpoint=${s3.endpoint}&region=us-east-1&forcePathStyle=true`,
        stop: () => s3.close(),
      };
    },
  },
  {
    // Google Cloud Storage through its S3-compatible XML API (what gs:// uses), with the endpoint
    // pointed at s3rver instead of https://storage.googleapis.com.
    name: "gs:// (Cloud Storage XML API, on s3rver)",
    enforcesSignatures: false,
    async start() {
      const bucket = "services-gcs-test";
      const s3: S3Server = await startS3([bucket]);
      return {
        url: `gs://${s3.accessKeyId}:${s3.secretAccessKey}@${bucket}/suite?endpoint=${encodeURIComponent(s3.endpoint)}`,
        stop: () => s3.close(),
      };
    },
  },
  {
    name: "azblob:// (Azurite)",
    enforcesSignatures: true,
    async start() {
      const azurite = await startAzurite();
      const { BlobServiceClient } = await import("@azure/storage-blob");
      const service = BlobServiceClient.fromConnectionString(azurite.connectionString);
      await service.getContainerClient("suite-private").create();
      // Azure sets anonymous read access per container: public files live in a public container.
      await service.getContainerClient("suite-public").create({ access: "blob" });
      const auth = `${azurite.account}:${encodeURIComponent(azurite.key)}`;
      const endpoint = encodeURIComponent(azurite.blobEndpoint);
      return {
        url: `azblob://${auth}@suite-private/suite?endpoint=${endpoint}`,
        publicUrl: `azblob://${auth}@suite-public/suite?endpoint=${endpoint}&visibility=public`,
        stop: () => azurite.close(),
      };
    },
  },
];

const UNSAFE_KEYS = [
  "",
  "..",
  "../escape.txt",
  "a/../../escape.txt",
  "/etc/passwd",
  "C:/windows/win.ini",
  "a\\..\\b.txt",
  "nul\u0000byte.txt",
  "line\nbreak.txt",
  "%2e%2e/escape.txt",
  "a//b.txt",
  "trailing/",
  ".env",
  "a/./b.txt",
];

const quiet = { error: () => {}, warn: () => {} };

for (const backend of backends) {
  describe(`storage on ${backend.name}`, () => {
    let started: Awaited<ReturnType<Backend["start"]>>;
    let storage: Storage;
    let app: TestApp;
    const signals = new SignalRegistry(quiet);
    const storedEvents: FileStoredPayload[] = [];
    signals.get<FileStoredPayload>("file.stored").connect((payload) => {
      storedEvents.push(payload);
    });
    const make = (extra: Partial<StorageOptions> = {}) =>
      createStorage({ url: started.url, root: "/unused", secret: "test-secret", signals, ...extra });
    /** Fetches a storage URL: relative ones through the app serving local files. */
    const fetchUrl = (url: string) => fetch(url.startsWith("/") ? app.base + url : url);

    before(async () => {
      started = await backend.start();
      storage = make();
      app = await serve(serveStorage(storage));
    });
    after(async () => {
      storage.close();
      await app.close();
      await started.stop();
    });

    test("put (text, bytes, stream), get, getBytes, exists, delete", async () => {
      const stamp = randomUUID();
      const fromText = await storage.put(`notes/${stamp}.txt`, "hello text");
      assert.deepEqual(fromText, { key: `notes/${stamp}.txt`, size: 10, contentType: "text/plain" });
      await storage.put(`bytes/${stamp}.bin`, new Uint8Array([0, 1, 2, 255]), {
        contentType: "application/octet-stream",
      });
      const fromStream = await storage.put(
        `deep/a/b/${stamp}.txt`,
        Readable.from([Buffer.from("stre"), Buffer.from("amed")]),
      );
      assert.equal(fromStream.size, 8);

      assert.equal(await text(await storage.get(`notes/${stamp}.txt`)), "hello text");
      assert.deepEqual([...(await storage.getBytes(`bytes/${stamp}.bin`))], [0, 1, 2, 255]);
      assert.equal(await text(await storage.get(`deep/a/b/${stamp}.txt`)), "streamed");
      assert.equal(await storage.exists(`notes/${stamp}.txt`), true);

      await storage.delete(`notes/${stamp}.txt`);
      assert.equal(await storage.exists(`notes/${stamp}.txt`), false);
      await storage.delete(`notes/${stamp}.txt`);
      await assert.rejects(storage.get(`notes/${stamp}.txt`), { code: "E_STORAGE_NOT_FOUND", status: 404 });
      await assert.rejects(storage.getBytes(`missing/${stamp}.txt`), { code: "E_STORAGE_NOT_FOUND", status: 404 });
    });

    test("list: a folder's files and sub-folders, recursive, paged with a signed cursor, never outside the storage", async () => {
      const base = `listing-${randomUUID().slice(0, 8)}`;
      const keys = [
        `${base}/a.txt`,
        `${base}/b.txt`,
        `${base}/c.txt`,
        `${base}/sub/d.txt`,
        `${base}/sub/deep/e.txt`,
        `${base}x/not-mine.txt`,
      ];
      for (const key of keys) await storage.put(key, "x");

      const own = await storage.list(base);
      assert.deepEqual(own, { files: [`${base}/a.txt`, `${base}/b.txt`, `${base}/c.txt`], folders: [`${base}/sub`] });
      assert.deepEqual(await storage.list(`${base}/`), own, "a trailing / names the same folder");
      assert.deepEqual(await storage.list(`${base}/sub`, { recursive: true }), {
        files: [`${base}/sub/d.txt`, `${base}/sub/deep/e.txt`],
        folders: [],
      });
      const all = await storage.list(base, { recursive: true });
      assert.deepEqual(
        all.files,
        keys.slice(0, 5),
        "recursive: every file below, and not the sibling folder sharing the name's start",
      );
      assert.equal(all.cursor, undefined);
      // Listed keys are the storage's own: they read back, and the root lists the folder without the driver's prefix.
      assert.equal(await text(await storage.get(all.files[4]!)), "x");
      const root = await storage.list();
      assert.ok(root.folders.includes(base) && root.folders.includes(`${base}x`), JSON.stringify(root));
      assert.ok(root.folders.every((folder) => !folder.includes("/")));
      assert.deepEqual(await storage.list(`${base}/nothing-here`), { files: [], folders: [] });
      assert.deepEqual(await storage.list(`${base}/a.txt`), { files: [], folders: [] }, "a file is not a folder");

      // Pages of two: every file once, in order, the last page without a cursor.
      const paged: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await storage.list(base, { recursive: true, pageSize: 2, ...(cursor ? { cursor } : {}) });
        assert.ok(page.files.length <= 2);
        paged.push(...page.files);
        cursor = page.cursor;
        pages++;
      } while (cursor && pages < 10);
      assert.deepEqual(paged, keys.slice(0, 5));
      assert.equal(pages, 3);

      // A cursor is the client's input once it is in a link: altered, foreign or for another folder is a 400.
      const first = await storage.list(base, { pageSize: 1 });
      assert.ok(first.cursor);
      const refused = { code: "E_STORAGE_CURSOR_INVALID", status: 400 };
      await assert.rejects(storage.list(base, { cursor: `${first.cursor.slice(0, -3)}AAA` }), refused);
      await assert.rejects(storage.list(base, { cursor: "garbage" }), refused);
      await assert.rejects(storage.list(`${base}/sub`, { cursor: first.cursor }), refused);
      await assert.rejects(storage.list(base, { recursive: true, cursor: first.cursor }), refused);
      const other = make({ secret: "another-secret" });
      await assert.rejects(other.list(base, { cursor: first.cursor }), refused);
      other.close();
      assert.deepEqual((await storage.list(base, { pageSize: 1, cursor: first.cursor })).files, [`${base}/b.txt`]);

      // Bad options are the programmer's: named.
      await assert.rejects(storage.list(base, { pageSize: 0 }), { code: "E_SERVICES_CONFIG_INVALID" });
      await assert.rejects(storage.list(base, { pageSize: 1001 }), { code: "E_SERVICES_CONFIG_INVALID" });
      await assert.rejects(storage.list(base, { recursiv: true } as never), {
        code: "E_UNKNOWN_OPTION",
        message: /recursive/,
      });
      for (const key of keys) await storage.delete(key);
      assert.deepEqual(await storage.list(base, { recursive: true }), { files: [], folders: [] });
    });

    test("a backend that cannot be reached: every operation is 503 E_STORAGE_FAILED, no secret in any message", async (t) => {
      if (!started.url.includes("endpoint=")) return t.skip("local disk has no server to lose");
      const port = await freePort();
      // The same storage pointed at a port nothing listens on; s3rver ignores secrets, so a telling one is used.
      const secret = started.url.startsWith("azblob:")
        ? decodeURIComponent(new URL(started.url).password)
        : "never-print-this-secret-0123456789";
      const url = started.url
        .replace(/127\.0\.0\.1(:|%3A)\d+/i, (_match, colon: string) => `127.0.0.1${colon}${port}`)
        .replace("S3RVER:S3RVER@", `S3RVER:${secret}@`);
      const down = make({ url });
      try {
        const key = `down/${randomUUID()}.txt`;
        const operations = [
          () => down.put(key, "x"),
          () => down.get(key),
          () => down.getBytes(key),
          () => down.delete(key),
          () => down.list("down"),
        ];
        for (const operation of operations) {
          await assert.rejects(operation(), (error: Error & { code?: string; status?: number }) => {
            assert.equal(error.code, "E_STORAGE_FAILED", error.message);
            assert.equal(error.status, 503);
            assert.ok(
              !error.message.includes(secret) && !error.message.includes(encodeURIComponent(secret)),
              error.message,
            );
            return true;
          });
        }
      } finally {
        down.close();
      }
    });

    test("put sends file.stored with the key, size and type", async () => {
      storedEvents.length = 0;
      const key = `signals/${randomUUID()}.json`;
      await storage.put(key, '{"a":1}');
      assert.deepEqual(storedEvents, [{ key, size: 7, contentType: "application/json" }]);
    });

    test("unsafe keys are refused with 400 by every operation, and nothing escapes the storage", async () => {
      for (const key of UNSAFE_KEYS) {
        const refused = { code: "E_STORAGE_KEY_INVALID", status: 400 };
        await assert.rejects(storage.put(key, "x"), refused, `put ${JSON.stringify(key)}`);
        await assert.rejects(storage.get(key), refused, `get ${JSON.stringify(key)}`);
        await assert.rejects(storage.getBytes(key), refused);
        await assert.rejects(storage.exists(key), refused);
        await assert.rejects(storage.delete(key), refused);
        await assert.rejects(storage.url(key), refused);
        await assert.rejects(storage.signedUrl(key), refused);
        if (key !== "" && key !== "trailing/")
          await assert.rejects(storage.list(key), refused, `list ${JSON.stringify(key)}`);
      }
      await assert.rejects(storage.list("../"), { code: "E_STORAGE_KEY_INVALID", status: 400 });
      if (started.outside) {
        assert.deepEqual(await readdir(started.outside), ["uploads"]);
        assert.equal(existsSync(join(started.outside, "escape.txt")), false);
      }
    });

    test("size and type limits: 413 and 415, and an oversized stream writes nothing", async () => {
      const limited = make({ limits: { maxBytes: 16, allowedTypes: ["text/plain", "image/*"] } });
      const key = `limits/${randomUUID()}.txt`;
      await limited.put(key, "sixteen bytes!!!");
      await assert.rejects(limited.put(key, "seventeen bytes!!"), { code: "E_STORAGE_TOO_LARGE", status: 413 });
      const big = `limits/${randomUUID()}.txt`;
      await assert.rejects(limited.put(big, Readable.from([Buffer.alloc(10), Buffer.alloc(10)])), {
        code: "E_STORAGE_TOO_LARGE",
        status: 413,
      });
      assert.equal(await limited.exists(big), false);
      await assert.rejects(
        limited.put(`limits/${randomUUID()}.exe`, "MZ", { contentType: "application/x-msdownload" }),
        {
          code: "E_STORAGE_TYPE_NOT_ALLOWED",
          status: 415,
        },
      );
      await limited.put(`limits/${randomUUID()}.png`, "png", { contentType: "image/png; charset=binary" });
      limited.close();
    });

    test("storeUpload stores a form upload under a generated name with the type's extension", async () => {
      const limited = make({ limits: { maxBytes: 64, allowedTypes: ["image/png"] } });
      const temp = await mkdtemp(join(tmpdir(), "services-upload-"));
      try {
        const filepath = join(temp, "upload-1");
        await writeFile(filepath, "fake png bytes");
        storedEvents.length = 0;
        const file = await limited.storeUpload(
          { filepath, originalFilename: "../../evil.html", mimetype: "image/png", size: 14 },
          { prefix: "avatars" },
        );
        assert.match(file.key, /^avatars\/[0-9a-f-]{36}\.png$/);
        assert.deepEqual(
          { ...file, key: "" },
          { key: "", size: 14, contentType: "image/png", originalName: "../../evil.html" },
        );
        assert.equal(await text(await limited.get(file.key)), "fake png bytes");
        assert.equal(existsSync(filepath), false, "the temporary file is removed");
        assert.deepEqual(storedEvents, [file]);

        const large = join(temp, "upload-2");
        await writeFile(large, Buffer.alloc(65));
        await assert.rejects(
          limited.storeUpload({ filepath: large, originalFilename: "a.png", mimetype: "image/png" }),
          {
            code: "E_STORAGE_TOO_LARGE",
          },
        );
        const html = join(temp, "upload-3");
        await writeFile(html, "<script>alert(1)</script>");
        await assert.rejects(
          limited.storeUpload({ filepath: html, originalFilename: "a.html", mimetype: "text/html" }),
          {
            code: "E_STORAGE_TYPE_NOT_ALLOWED",
          },
        );
        await assert.rejects(limited.storeUpload({ filepath: html, originalFilename: "a.bin", mimetype: null }), {
          code: "E_STORAGE_TYPE_NOT_ALLOWED",
        });
        // The field as ctx.request.files?.[field] gives it: absent or several files is the client's 400.
        await assert.rejects(limited.storeUpload(undefined), {
          code: "E_STORAGE_UPLOAD_MISSING",
          status: 400,
          message: /got none/,
        });
        await assert.rejects(limited.storeUpload([{ filepath: html }, { filepath: html }]), {
          code: "E_STORAGE_UPLOAD_MISSING",
          status: 400,
          message: /got 2 files/,
        });
      } finally {
        limited.close();
        await rm(temp, { recursive: true, force: true });
      }
    });

    test("a signed URL reads a private file; a tampered one is refused", async () => {
      const key = `private/${randomUUID()}.txt`;
      await storage.put(key, "secret contents");
      const signed = await storage.signedUrl(key, { expiresIn: 60 });
      const response = await fetchUrl(signed);
      assert.equal(response.status, 200);
      assert.equal(await response.text(), "secret contents");

      const plain = await storage.url(key);
      assert.ok(plain.includes(key), plain);
      if (backend.enforcesSignatures) {
        // `signature=` on local links, `sig=` on Azure SAS links.
        const tampered = signed.replace(
          /\b(signature|sig)=([^&]{4})/,
          (_m, name: string, start: string) => `${name}=${start === "AAAA" ? "BBBB" : "AAAA"}`,
        );
        assert.notEqual(tampered, signed);
        assert.equal((await fetchUrl(tampered)).status, 403);
        assert.equal((await fetchUrl(plain)).status, 403);
      } else {
        const query = new URL(signed).searchParams;
        assert.equal(query.get("X-Amz-Expires"), "60");
        assert.match(query.get("X-Amz-Signature") ?? "", /^[0-9a-f]{64}$/);
      }
      await assert.rejects(storage.signedUrl(key, { expiresIn: 0 }), { code: "E_SERVICES_CONFIG_INVALID" });
    });

    test("a public storage serves files by their plain URL", async () => {
      const publicStorage = make({
        url: started.publicUrl ?? `${started.url}${started.url.includes("?") ? "&" : "?"}visibility=public`,
      });
      const publicApp = await serve(serveStorage(publicStorage));
      try {
        const key = `public/${randomUUID()}.txt`;
        await publicStorage.put(key, "for everyone");
        const url = await publicStorage.url(key);
        const response = await fetch(url.startsWith("/") ? publicApp.base + url : url);
        assert.equal(response.status, 200);
        assert.equal(await response.text(), "for everyone");
      } finally {
        publicStorage.close();
        await publicApp.close();
      }
    });
  });
}
