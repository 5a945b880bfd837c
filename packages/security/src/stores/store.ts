/**
 * The one interface every server-side session store implements. koa-session talks to it through
 * the adapter in `session.ts`, which validates ids and turns store failures into a 503.
 */

/** What a session holds: plain JSON values. */
export type SessionData = Record<string, unknown>;

/** A server-side session store (Redis, SQL, S3, memory). */
export interface SessionStore {
  /** Short name for messages and logs (`redis`, `postgres`, `s3`...). */
  readonly kind: string;
  /** The session's data, or `undefined` when it does not exist or has expired. */
  get(id: string): Promise<SessionData | undefined>;
  /** Writes a session that expires at `expiresAt` (epoch milliseconds). */
  set(id: string, data: SessionData, expiresAt: number): Promise<void>;
  /** Deletes a session (no error when it does not exist). */
  destroy(id: string): Promise<void>;
  /** Deletes expired sessions and returns how many; stores with native expiry return 0. */
  sweep(): Promise<number>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** Parses stored JSON into session data; anything else counts as no session. */
export function parseSessionData(text: string): SessionData | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as SessionData) : undefined;
  } catch {
    return undefined;
  }
}
