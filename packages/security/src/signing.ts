/**
 * HMAC-SHA256 signing of cookie values. Each use (session, remember-me, JWT secret) derives its
 * own key from the secret key, so a value signed for one purpose is never valid for another, and
 * older secret keys (`secretKeyFallbacks`) still verify during a rotation.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** Signs and verifies strings for one purpose. */
export interface Signer {
  /** `value.signature` (base64url HMAC-SHA256). */
  sign(value: string): string;
  /** The value when the signature matches one of the keys, else `undefined`. */
  unsign(signed: string): string | undefined;
}

/** Derives a 32-byte key for one purpose from a secret. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac("sha256", secret).update(`fw-security:${purpose}`).digest();
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  if (left.length !== right.length) {
    // Still spend the time of a comparison so the length check is not a shortcut.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** Makes a signer for `purpose` that signs with `secrets[0]` and accepts any of `secrets`. */
export function createSigner(secrets: readonly string[], purpose: string): Signer {
  const keys = secrets.map((secret) => deriveKey(secret, purpose));
  const mac = (key: Buffer, value: string): string => createHmac("sha256", key).update(value).digest("base64url");
  return {
    sign(value) {
      return `${value}.${mac(keys[0]!, value)}`;
    },
    unsign(signed) {
      const dot = signed.lastIndexOf(".");
      if (dot <= 0) return undefined;
      const value = signed.slice(0, dot);
      const signature = signed.slice(dot + 1);
      let valid = false;
      for (const key of keys) if (constantTimeEqual(mac(key, value), signature)) valid = true;
      return valid ? value : undefined;
    },
  };
}
