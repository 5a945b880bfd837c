import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

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

/**
 * What the child runs: s3rver on a free port of 127.0.0.1, the port printed once it listens, and
 * an exit when the test process goes away (its stdin closes), so a crashed test leaves no server.
 */
const CHILD = `
const S3rver = require(process.argv[1]);
const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: process.argv[2],
  configureBuckets: JSON.parse(process.argv[3]).map((name) => ({ name })) });
server.run().then((address) => process.stdout.write("PORT " + address.port + "\\n"), (error) => { console.error(String(error)); process.exit(1); });
process.stdin.on("end", () => process.exit(0)).resume();
`;

/**
 * Starts s3rver (an S3-compatible server) on a free port with the given buckets, in a child
 * process with OpenSSL's legacy provider: s3rver (last released for OpenSSL 1.1) makes the
 * continuation tokens of paged ListObjectsV2 answers with DES, which Node's OpenSSL 3 refuses
 * otherwise ("We encountered an internal error" on the second page of a listing).
 */
export async function startS3(buckets: readonly string[] = ["test"]): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), "s3rver-"));
  const main = createRequire(import.meta.url).resolve("s3rver");
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", "-e", CHILD, main, directory, JSON.stringify(buckets)],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const exited = once(child, "exit");
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /PORT (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", () =>
      reject(new Error(`s3rver (npm package "s3rver") did not start on 127.0.0.1: ${output.trim() || "no output"}`)),
    );
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    buckets,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
