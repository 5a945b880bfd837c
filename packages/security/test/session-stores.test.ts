/**
 * Runs the shared session-store suite against every store: signed cookies, memory, Redis,
 * PostgreSQL, MariaDB, SQLite, S3 (s3rver), Google Cloud Storage's XML API (gs://, on s3rver) and
 * Azure Blob Storage (azblob://, on Azurite). Each run uses its own key prefix, table or bucket
 * path, and removes it afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Redis } from "ioredis";
import knex, { type Knex } from "knex";
import { BlobServiceClient, type ContainerClient } from "@azure/storage-blob";
import {
  requireServer,
  serverSkip,
  serverUrls,
  startAzurite,
  startS3,
  type AzuriteServer,
  type S3Server,
} from "@fwkit/test-servers";
import { MemorySessionStore } from "../src/stores/memory.js";
import { runSessionStoreSuite } from "./helpers/session-suite.js";

const run = `${process.pid}_${Date.now().toString(36)}`;

runSessionStoreSuite({ name: "signed cookie", url: () => "cookie" });

const memory = new MemorySessionStore();
runSessionStoreSuite({
  name: "memory",
  url: () => "memory:",
  security: () => ({ sessionStore: memory }),
  rawExists: async (id) => memory.has(id),
  cleanup: "self",
});

let redis: Redis | undefined;
const redisPrefix = `sess_test_${run}:`;
runSessionStoreSuite({
  name: "redis",
  skip: serverSkip.skip,
  before: async () => {
    await requireServer("redis");
    redis = new Redis(serverUrls.redis);
  },
  url: () => `${serverUrls.redis}?prefix=${encodeURIComponent(redisPrefix)}`,
  rawExists: async (id) => (await redis!.exists(redisPrefix + id)) === 1,
  cleanup: "self",
  after: async () => {
    const keys = await redis!.keys(`${redisPrefix}*`);
    if (keys.length > 0) await redis!.del(...keys);
    await redis!.quit();
  },
});

function sqlCase(name: "postgres" | "mysql", client: "pg" | "mysql2") {
  const table = `sess_test_${name}_${run}`;
  let db: Knex | undefined;
  runSessionStoreSuite({
    name: name === "mysql" ? "mariadb" : name,
    skip: serverSkip.skip,
    before: async () => {
      await requireServer(name);
      db = knex({ client, connection: serverUrls[name] });
    },
    url: () => `${serverUrls[name]}?table=${table}`,
    rawExists: async (id) => (await db!(table).where({ id }).first()) !== undefined,
    cleanup: "sweep",
    after: async () => {
      await db!.schema.dropTableIfExists(table);
      await db!.destroy();
    },
  });
}
sqlCase("postgres", "pg");
sqlCase("mysql", "mysql2");

const sqliteDir = mkdtempSync(join(tmpdir(), "security-sqlite-"));
const sqliteFile = join(sqliteDir, "nested", "sessions.db");
let sqlite: Knex | undefined;
runSessionStoreSuite({
  name: "sqlite",
  before: async () => {
    sqlite = knex({ client: "better-sqlite3", connection: { filename: sqliteFile }, useNullAsDefault: true });
  },
  url: () => `sqlite:${sqliteFile}?table=sess_test`,
  rawExists: async (id) => (await sqlite!("sess_test").where({ id }).first()) !== undefined,
  cleanup: "sweep",
  after: async () => {
    await sqlite!.destroy();
    rmSync(sqliteDir, { recursive: true, force: true });
  },
});

let s3: S3Server | undefined;
let s3Client: S3Client | undefined;
const s3Prefix = `sessions-${run}`;
runSessionStoreSuite({
  name: "s3 (s3rver)",
  before: async () => {
    s3 = await startS3(["security-sessions"]);
    s3Client = new S3Client({
      endpoint: s3.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
  },
  url: () =>
    `s3://${s3!.accessKeyId}:${s3!.secretAccessKey}@security-sessions/${s3Prefix}?endpoint=${encodeURIComponent(s3!.endpoint)}&region=us-east-1`,
  rawExists: async (id) => {
    try {
      await s3Client!.send(new HeadObjectCommand({ Bucket: "security-sessions", Key: `${s3Prefix}/${id}.json` }));
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  },
  cleanup: "sweep",
  after: async () => {
    s3Client!.destroy();
    await s3!.close();
  },
});

// Google Cloud Storage through its S3-compatible XML API (what gs:// uses), the endpoint pointed
// at s3rver instead of https://storage.googleapis.com.
let gcs: S3Server | undefined;
let gcsClient: S3Client | undefined;
const gcsPrefix = `gcs-sessions-${run}`;
runSessionStoreSuite({
  name: "gs:// (Cloud Storage XML API, on s3rver)",
  before: async () => {
    gcs = await startS3(["security-gcs-sessions"]);
    gcsClient = new S3Client({
      endpoint: gcs.endpoint,
      region: "auto",
      forcePathStyle: true,
      credentials: { accessKeyId: gcs.accessKeyId, secretAccessKey: gcs.secretAccessKey },
    });
  },
  url: () =>
    `gs://${gcs!.accessKeyId}:${gcs!.secretAccessKey}@security-gcs-sessions/${gcsPrefix}?endpoint=${encodeURIComponent(gcs!.endpoint)}`,
  rawExists: async (id) => {
    try {
      await gcsClient!.send(new HeadObjectCommand({ Bucket: "security-gcs-sessions", Key: `${gcsPrefix}/${id}.json` }));
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  },
  cleanup: "sweep",
  after: async () => {
    gcsClient!.destroy();
    await gcs!.close();
  },
});

let azurite: AzuriteServer | undefined;
let azureContainer: ContainerClient | undefined;
const azurePrefix = `sessions-${run}`;
runSessionStoreSuite({
  name: "azblob:// (Azurite)",
  before: async () => {
    azurite = await startAzurite();
    azureContainer = BlobServiceClient.fromConnectionString(azurite.connectionString).getContainerClient(
      "security-sessions",
    );
    await azureContainer.create();
  },
  url: () =>
    `azblob://${azurite!.account}:${encodeURIComponent(azurite!.key)}@security-sessions/${azurePrefix}?endpoint=${encodeURIComponent(azurite!.blobEndpoint)}`,
  rawExists: (id) => azureContainer!.getBlockBlobClient(`${azurePrefix}/${id}.json`).exists(),
  cleanup: "sweep",
  after: async () => {
    await azurite!.close();
  },
});
