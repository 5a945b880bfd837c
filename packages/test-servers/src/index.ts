/**
 * @module test-servers
 * Real servers for tests. PostgreSQL, MariaDB and Redis must already run on 127.0.0.1 (`npm test`
 * starts them: scripts/test-setup.mjs); s3rver, smtp-server and aws-ses-v2-local are started in-process and Azurite as a
 * child process, each on a free port. A test that needs a
 * server that is absent fails with a message naming it, unless `FW_TEST_NO_SERVERS=1` is set, in
 * which case `serverTest` skips it with that reason (a developer opt-out that CI never sets).
 */
import { createConnection } from "node:net";

/** True when the developer opted out of tests that need external servers. */
export const noServers = process.env["FW_TEST_NO_SERVERS"] === "1";

/** The skip option for node:test when servers are opted out (`test(name, serverSkip, fn)`). */
export const serverSkip: { skip: string | false } = {
  skip: noServers ? "FW_TEST_NO_SERVERS=1: tests that need PostgreSQL, MariaDB or Redis are skipped" : false,
};

/** Connection URLs of the machine's servers (override with TEST_PG_URL, TEST_MYSQL_URL, TEST_REDIS_URL). */
export const serverUrls = {
  postgres: process.env["TEST_PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test",
  mysql: process.env["TEST_MYSQL_URL"] ?? "mysql://root@127.0.0.1:3306/test",
  redis: process.env["TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379/0",
} as const;

const starts: Record<keyof typeof serverUrls, string> = {
  postgres: "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
  mysql: "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql",
  redis: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
};

/** Resolves when the server answers on its port; rejects with a message that names it and how to start it. */
export async function requireServer(name: keyof typeof serverUrls): Promise<string> {
  const url = new URL(serverUrls[name]);
  const port = Number(url.port);
  await new Promise<void>((resolve, reject) => {
    const socket = createConnection({ host: url.hostname, port });
    socket.setTimeout(2000);
    socket.once("connect", () => {
      socket.end();
      resolve();
    });
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(`${name} is not reachable on ${url.hostname}:${port} (${why}). Start it with: ${starts[name]}`));
    };
    socket.once("error", (error) => fail(error.message));
    socket.once("timeout", () => fail("timed out"));
  });
  return serverUrls[name];
}

export { startS3, type S3Server } from "./s3.js";
export { startSmtp, type SmtpServer, type ReceivedMail } from "./smtp.js";
export { AZURITE_ACCOUNT, AZURITE_KEY, freePort, startAzurite, type AzuriteServer } from "./azurite.js";
export { startSes, type SesMail, type SesServer } from "./ses.js";
export { XSS_VECTORS } from "./xss-vectors.js";
export {
  type LoadedModules,
  type LoadedPackages,
  loadedAmong,
  modulesLoadedBy,
  packageOf,
  packagesLoadedBy,
} from "./loaded-packages.js";
export { rawGet, type RawResponse } from "./raw-get.js";
export { openEventStream, type EventStreamClient, type StreamEvent } from "./event-stream.js";
export { startRedis, type RedisProcess } from "./redis-process.js";
export { localSqlitePrebuilds } from "./sqlite-prebuild.js";
export {
  csrfFrom,
  deletesCookie,
  HttpClient,
  httpClient,
  parseSetCookie,
  type FormFields,
  type HttpAnswer,
  type HttpClientOptions,
  type HttpRequestOptions,
  type SetCookie,
} from "./http-client.js";
