import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { E_SERVICE_URL_INVALID } from "../errors.js";
import type { ServiceLogger } from "../logger.js";
import { closeRedis, connectRedis, redisOutageLog } from "../redis.js";
import { redactUrl, tryParseUrl } from "../urls.js";
import { defaultRegistry, type SignalRegistry } from "./signal.js";

/** What {@link bridgeSignals} needs. */
export interface BridgeOptions {
  /** `redis://` or `rediss://` URL shared by every process of the app. */
  readonly url: string;
  /** The signals that cross processes; others stay local. */
  readonly names: readonly string[];
  /** Registry whose signals are bridged (default: the process-wide one). */
  readonly registry?: SignalRegistry;
  /** Channel prefix, so several apps can share one Redis (default `signals`). */
  readonly prefix?: string;
  /** Where undeliverable messages are reported (default: the registry's logger). */
  readonly logger?: ServiceLogger;
}

/** A running bridge. */
export interface SignalBridge {
  /** This process's id, carried by every message it publishes. */
  readonly id: string;
  /** Disconnects from the signals and closes both Redis connections. */
  close(): Promise<void>;
}

interface Envelope {
  readonly source: string;
  readonly payload: unknown;
}

/**
 * Makes the named signals cross processes over Redis publish/subscribe: a local `send` is also
 * published (payload as JSON), and a message from another process is delivered to this process's
 * receivers with `origin: "remote"`. A process ignores its own messages, so nothing is delivered twice.
 * Payloads must survive JSON (dates arrive as strings).
 */
export async function bridgeSignals(options: BridgeOptions): Promise<SignalBridge> {
  const parsed = tryParseUrl(options.url);
  if (!parsed || (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")) {
    throw new E_SERVICE_URL_INVALID("signalsUrl", redactUrl(options.url), "use a redis:// or rediss:// URL");
  }
  const registry = options.registry ?? defaultRegistry();
  const logger = options.logger ?? registry.logger;
  const prefix = options.prefix ?? "signals";
  const id = randomUUID();
  const channelOf = (name: string) => `${prefix}:${name}`;
  const byChannel = new Map(options.names.map((name) => [channelOf(name), registry.get(name)] as const));

  // One outage log for both connections: they reach the same Redis, so they fail and recover together.
  const outage = redisOutageLog(options.url, "signal bridge", logger);
  const publisher = await connectRedis(options.url, "signal bridge", logger, outage);
  let subscriber: Redis;
  try {
    subscriber = await connectRedis(options.url, "signal bridge", logger, outage);
    subscriber.on("message", (channel: string, message: string) => {
      const target = byChannel.get(channel);
      if (!target) return;
      let envelope: Envelope;
      try {
        envelope = JSON.parse(message) as Envelope;
      } catch (error) {
        logger.warn({ err: error, channel }, "signal bridge: ignored a message that is not JSON");
        return;
      }
      if (envelope.source === id) return;
      void target.send(envelope.payload, { origin: "remote" });
    });
    if (byChannel.size > 0) await subscriber.subscribe(...byChannel.keys());
  } catch (error) {
    await closeRedis(publisher);
    throw error;
  }

  const disconnects = [...byChannel].map(([channel, target]) =>
    target.connect(async (payload, meta) => {
      if (meta.origin === "remote") return;
      // A payload JSON cannot hold throws here; the signal logs it as a failed receiver.
      const envelope: Envelope = { source: id, payload };
      const message = JSON.stringify(envelope);
      try {
        await publisher.publish(channel, message);
      } catch (error) {
        // Redis is down: counted by the outage log, not logged as a failed receiver per signal sent.
        outage.failed(error);
      }
    }),
  );

  return {
    id,
    async close() {
      for (const disconnect of disconnects) disconnect();
      await Promise.all([closeRedis(subscriber), closeRedis(publisher)]);
    },
  };
}
