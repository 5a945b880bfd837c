import type { QueueSettings } from "../queue-options.js";
import type { QueueLocation } from "../url.js";
import { importDriver } from "./load.js";
import { MemoryDriver } from "./memory.js";
import type { DriverContext, QueueDriver } from "./types.js";

/** The driver of a parsed QUEUE_URL; BullMQ and this package's driver over it are imported here, only for `redis://`. */
export async function createDriver(
  location: QueueLocation,
  settings: QueueSettings,
  context: DriverContext,
): Promise<QueueDriver> {
  if (location.kind !== "bullmq")
    return new MemoryDriver(location.kind, context, { completed: settings.keepCompleted, failed: settings.keepFailed });
  const bullmq = await importDriver<typeof import("bullmq")>("bullmq", "job queue (QUEUE_URL=redis://...)");
  const { BullMQDriver } = await import("./bullmq.js");
  return new BullMQDriver(bullmq, location.redis, settings, context);
}
