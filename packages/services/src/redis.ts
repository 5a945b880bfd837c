import type { Redis } from "ioredis";
import { outageLog, watchConnection, type OutageLog } from "@fwkit/battery-kit";
import { requireDriver } from "./drivers.js";
import { E_SERVICE_UNREACHABLE } from "./errors.js";
import type { ServiceLogger } from "./logger.js";
import { redactUrl } from "./urls.js";

/** The outage log of one Redis connection of a service (koa-host's one rule for logging outages). */
export function redisOutageLog(url: string, service: string, logger: ServiceLogger): OutageLog {
  return outageLog({ logger, name: `${service}: Redis at ${redactUrl(url)}` });
}

/** How long a fail-fast connection's command may wait for Redis before it fails (milliseconds). */
export const FAIL_FAST_COMMAND_MS = 500;

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /**
   * Commands fail at once while the connection is down (no offline queue, no retry of a command
   * cut by a lost connection) and after {@link FAIL_FAST_COMMAND_MS} when Redis does not answer:
   * for the cache, where a failed read is a miss and waiting for Redis would hold the request.
   */
  readonly failFast?: boolean;
}

/**
 * Opens an ioredis connection and waits until it answers, so a wrong `cacheUrl` or `signalsUrl`
 * fails at start-up with a message naming it instead of at the first request. Afterwards its
 * connection errors and recoveries go to `outage` (one line per state change, not one per
 * reconnect attempt or request).
 */
export async function connectRedis(
  url: string,
  service: string,
  logger: ServiceLogger,
  outage = redisOutageLog(url, service, logger),
  options: ConnectRedisOptions = {},
): Promise<Redis> {
  // ioredis is loaded only by apps that configure Redis (a cache or signal bridge URL).
  const { Redis } = requireDriver<typeof import("ioredis")>("ioredis", service);
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    ...(options.failFast
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: FAIL_FAST_COMMAND_MS }
      : { maxRetriesPerRequest: 3 }),
  });
  // Also keeps ioredis from turning connection errors into unhandled 'error' events.
  watchConnection(client, outage);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new E_SERVICE_UNREACHABLE(service, redactUrl(url), (error as Error).message);
  }
  return client;
}

/** Closes a connection politely, then for good (quit can hang when the server is gone). */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === "end") return;
  try {
    await Promise.race([client.quit(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  } catch {
    // Already closing or closed.
  }
  client.disconnect();
}
