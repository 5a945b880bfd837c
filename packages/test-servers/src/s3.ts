import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
// s3rver has no types of its own.
// @ts-expect-error untyped module
import S3rver from "s3rver";

/** A running s3rver on 127.0.0.1. */
export interface S3Server {
  /** `http://127.0.0.1:PORT` */
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Buckets created at start. */
  readonly buckets: readonly string[];
  close(): Promise<void>;
}

/** Starts s3rver (an S3-compatible server) on a free port with the given buckets. */
export async function startS3(buckets: readonly string[] = ["test"]): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), "s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    buckets,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
