import type { SessionStore } from "@fastify/session";
import type { Session } from "fastify";
import { Redis } from "ioredis";

/**
 * A Redis store for @fastify/session on ioredis, the driver the security package's Redis sessions
 * use: one JSON string key per session with a millisecond TTL, as that store writes it, so the
 * Fastify peer of the db workload does the same Redis work per request.
 */
export class FastifyRedisStore implements SessionStore {
  readonly #client: Redis;
  readonly #prefix: string;
  readonly #ttlMs: number;

  constructor(url: string, prefix: string, ttlMs: number) {
    this.#client = new Redis(url, { maxRetriesPerRequest: 1 });
    this.#prefix = prefix;
    this.#ttlMs = ttlMs;
  }

  set(sessionId: string, session: Session, callback: (err?: unknown) => void): void {
    this.#client
      .set(this.#prefix + sessionId, JSON.stringify(session), "PX", this.#ttlMs)
      .then(() => callback(), callback);
  }

  get(sessionId: string, callback: (err: unknown, result?: Session | null) => void): void {
    this.#client
      .get(this.#prefix + sessionId)
      .then((text) => callback(null, text === null ? null : (JSON.parse(text) as Session)), callback);
  }

  destroy(sessionId: string, callback: (err?: unknown) => void): void {
    this.#client.del(this.#prefix + sessionId).then(() => callback(), callback);
  }

  /** Closes the connection (at server close). */
  async close(): Promise<void> {
    await this.#client.quit();
  }
}

declare module "fastify" {
  /** The bench's session data. */
  interface Session {
    user?: string;
  }
}
