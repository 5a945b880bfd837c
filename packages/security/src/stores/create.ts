/**
 * Builds the session store a session URL names. Each store's module (and its driver) is loaded
 * only when its URL is used, so an app on cookie sessions never loads ioredis, knex or the S3 SDK.
 */
import { parseSessionUrl, type SessionUrl } from "../session-url.js";
import type { SessionStore } from "./store.js";

/** Options of {@link createSessionStore}. */
export interface CreateSessionStoreOptions {
  /** Base folder of relative SQLite paths (the app root). */
  readonly root?: string;
  /** Told about connection failures of stores that reconnect in the background (Redis). */
  readonly onConnectionError?: (error: Error) => void;
}

/** The store for a session URL, or `undefined` for cookie sessions (`cookie`, the default). */
export async function createSessionStore(
  url: string | SessionUrl,
  options: CreateSessionStoreOptions = {},
): Promise<SessionStore | undefined> {
  const parsed = typeof url === "string" ? parseSessionUrl(url, options.root) : url;
  switch (parsed.kind) {
    case "cookie":
      return undefined;
    case "memory": {
      const { MemorySessionStore } = await import("./memory.js");
      return new MemorySessionStore();
    }
    case "redis": {
      const { RedisSessionStore } = await import("./redis.js");
      return new RedisSessionStore({
        url: parsed.url,
        prefix: parsed.prefix,
        ...(options.onConnectionError ? { onConnectionError: options.onConnectionError } : {}),
      });
    }
    case "postgres":
    case "mysql":
    case "sqlite": {
      const { SqlSessionStore } = await import("./sql.js");
      return new SqlSessionStore(parsed);
    }
    case "s3": {
      const { S3SessionStore } = await import("./s3.js");
      return new S3SessionStore(parsed);
    }
    case "gcs": {
      const { S3SessionStore } = await import("./s3.js");
      return new S3SessionStore(parsed);
    }
    case "azblob": {
      const { AzureBlobSessionStore } = await import("./azure.js");
      return new AzureBlobSessionStore(parsed.location);
    }
  }
}
