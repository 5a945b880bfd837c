/**
 * Azurite, Microsoft's Azure Storage emulator (from the npm registry), started as a child process
 * on 127.0.0.1 on a free port, blob service only, data in memory, telemetry off (no traffic leaves
 * the machine).
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createConnection, createServer, type AddressInfo } from "node:net";
import { dirname, join } from "node:path";

/** Azurite's fixed development account and key (public, documented by Microsoft). */
export const AZURITE_ACCOUNT = "devstoreaccount1";
/** The key of {@link AZURITE_ACCOUNT}. */
export const AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/** A running Azurite blob service. */
export interface AzuriteServer {
  /** The blob service URL: `http://127.0.0.1:PORT/devstoreaccount1`. */
  readonly blobEndpoint: string;
  readonly port: number;
  readonly account: string;
  readonly key: string;
  /** `DefaultEndpointsProtocol=http;AccountName=...;AccountKey=...;BlobEndpoint=...` */
  readonly connectionString: string;
  close(): Promise<void>;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Starts Azurite's blob service; rejects naming azurite when it cannot start. */
export async function startAzurite(): Promise<AzuriteServer> {
  const require = createRequire(import.meta.url);
  const bin = join(dirname(require.resolve("azurite/package.json")), "dist", "src", "blob", "main.js");
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      bin,
      "--blobHost",
      "127.0.0.1",
      "--blobPort",
      String(port),
      "--inMemoryPersistence",
      "--silent",
      "--disableTelemetry",
      "--skipApiVersionCheck",
      "--loose",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Azurite is a Node program: a busy machine takes many times its quiet start (about 2 s) to
  // load it; the deadline only ends a hang.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (await answers(port)) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      assert.fail(
        `azurite (the Azure Storage emulator, npm package "azurite") did not start on 127.0.0.1:${port}: ${stderr.trim() || "no output"}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const blobEndpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`;
  return {
    blobEndpoint,
    port,
    account: AZURITE_ACCOUNT,
    key: AZURITE_KEY,
    connectionString: `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};BlobEndpoint=${blobEndpoint};`,
    async close() {
      if (child.exitCode === null) {
        child.kill();
        await exited;
      }
    },
  };
}
