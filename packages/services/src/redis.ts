import type { Redis } from "ioredis";
import { requireDriver } from "./drivers.js";
import { E_SERVICE_UNREACHABLE } from "./errors.js";
import type { ServiceLogger } from "./logger.js";
import { redactUrl } from "./urls.js";

/**
 * Opens an ioredis connection and waits until it answers, so a wrong `cacheUrl` or `signalsUrl`
 * fails at start-up with a message naming it instead of at the first request.
 */
export async function connectRedis(url: string, service: string, logger: ServiceLogger): Promise<Redis> {
  // ioredis is loaded only by apps that configure Redis (a cache or signal bridge URL).
  const { Redis } = requireDriver<typeof import("ioredis")>("ioredis", service);
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 3 });
  // Without a listener ioredis would turn connection errors into unhandled 'error' events.
  client.on("error", (error: Error) => {
    logger.error({ err: error, url: redactUrl(url) }, `${service}: Redis connection error`);
  });
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
