/**
 * Sealed payloads: a job with `sealed: true` is kept on its queue encrypted (AES-256-GCM, a key
 * derived from the app's secret key, the job's name bound in as associated data), so Redis, the
 * dashboard and `jobs:failed` show only `{ sealed: "fwkit-sealed.v1...." }`, and a worker runs only
 * what this app's own dispatch sealed: a payload added or edited by hand does not open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** What a sealed job's payload is where the queue keeps it. */
export interface SealedPayload {
  readonly sealed: string;
}

/** Seals and opens the payloads of sealed jobs with the app's secret keys. */
export interface PayloadSealer {
  /** The payload (JSON-safe) encrypted for the job `name`. */
  seal(name: string, payload: unknown): SealedPayload;
  /** The payload a {@link PayloadSealer.seal} of the job `name` made with one of the keys, or undefined. */
  open(name: string, stored: unknown): { readonly payload: unknown } | undefined;
}

const VERSION = "fwkit-sealed.v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
// A sealed payload larger than this is not one the app made (a mail is a few kB).
const MAX_SEALED_CHARS = 8 * 1024 * 1024;

function deriveKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), "fwkit.jobs", "sealed job payload", 32));
}

/**
 * A sealer from the app's secret keys: the first seals, every one opens (so jobs queued before a
 * key rotation, with the old key kept in `secretKeyFallbacks`, still run).
 */
export function payloadSealer(secretKeys: readonly string[]): PayloadSealer {
  const keys = secretKeys.filter((key) => typeof key === "string" && key !== "").map(deriveKey);
  if (keys.length === 0) throw new TypeError("payloadSealer() needs at least one secret key");
  return {
    seal(name, payload) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", keys[0]!, iv);
      cipher.setAAD(Buffer.from(name, "utf8"));
      const body = Buffer.concat([cipher.update(JSON.stringify(payload) ?? "null", "utf8"), cipher.final()]);
      const sealed = Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
      return { sealed: `${VERSION}${sealed}` };
    },
    open(name, stored) {
      const text = (stored as { sealed?: unknown } | null | undefined)?.sealed;
      if (typeof text !== "string" || !text.startsWith(VERSION) || text.length > MAX_SEALED_CHARS) return undefined;
      const raw = Buffer.from(text.slice(VERSION.length), "base64url");
      if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(raw.length - TAG_BYTES);
      const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
      for (const key of keys) {
        try {
          const decipher = createDecipheriv("aes-256-gcm", key, iv);
          decipher.setAAD(Buffer.from(name, "utf8"));
          decipher.setAuthTag(tag);
          const json = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
          return { payload: JSON.parse(json) as unknown };
        } catch {
          // Not this key (or not sealed by this app): try the next.
        }
      }
      return undefined;
    },
  };
}

/** True for a payload shaped as a sealed one (what the dashboard shows as it is). */
export function isSealedPayload(value: unknown): value is SealedPayload {
  const sealed = (value as { sealed?: unknown } | null | undefined)?.sealed;
  return typeof sealed === "string" && sealed.startsWith(VERSION);
}
