import { E_QUEUE_URL_INVALID } from "./errors.js";

/** How to reach Redis, read from a `redis://` or `rediss://` QUEUE_URL. */
export interface RedisLocation {
  readonly host: string;
  readonly port: number;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly db: number;
  readonly tls: boolean;
}

/** A parsed QUEUE_URL. */
export type QueueLocation =
  | { readonly kind: "bullmq"; readonly redis: RedisLocation; readonly prefix: string | undefined }
  | { readonly kind: "memory" }
  | { readonly kind: "sync" };

/** The query parameters a redis:// QUEUE_URL takes. */
export const REDIS_URL_PARAMS = ["prefix"] as const;

/** Reads `QUEUE_URL`: `redis://` / `rediss://` (BullMQ), `memory:` or `sync:`; anything else is `E_QUEUE_URL_INVALID`. */
export function parseQueueUrl(url: string): QueueLocation {
  if (typeof url !== "string" || url.trim() === "") throw new E_QUEUE_URL_INVALID(String(url), "it is empty");
  const text = url.trim();
  if (text === "memory:" || text === "memory://") return { kind: "memory" };
  if (text === "sync:" || text === "sync://") return { kind: "sync" };
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new E_QUEUE_URL_INVALID(text, "it is not a URL");
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new E_QUEUE_URL_INVALID(text, `the scheme ${parsed.protocol} is not one the queue knows`);
  if (!parsed.hostname) throw new E_QUEUE_URL_INVALID(text, "it names no host");
  for (const key of parsed.searchParams.keys()) {
    if (!(REDIS_URL_PARAMS as readonly string[]).includes(key))
      throw new E_QUEUE_URL_INVALID(
        text,
        `it has the parameter ${JSON.stringify(key)}; the known ones are: ${REDIS_URL_PARAMS.join(", ")}`,
      );
  }
  const dbText = parsed.pathname.replace(/^\//, "");
  if (dbText !== "" && !/^\d{1,2}$/.test(dbText))
    throw new E_QUEUE_URL_INVALID(text, `its path /${dbText} must be a database number such as /0`);
  const port = parsed.port === "" ? 6379 : Number(parsed.port);
  return {
    kind: "bullmq",
    redis: {
      host: parsed.hostname.replace(/^\[|\]$/g, ""),
      port,
      username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
      password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
      db: dbText === "" ? 0 : Number(dbText),
      tls: parsed.protocol === "rediss:",
    },
    prefix: parsed.searchParams.get("prefix") ?? undefined,
  };
}
