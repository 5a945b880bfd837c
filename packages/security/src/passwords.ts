/**
 * Password hashing: bcrypt by default, argon2id selectable. Verification reads the algorithm from
 * the stored hash, so an app can switch algorithms (or costs) and upgrade each user's hash at
 * their next login: `if (await verifyPassword(pw, hash)) { if (needsRehash(hash)) save(await hashPassword(pw)) }`.
 */
import type { Algorithm } from "@node-rs/argon2";
import type bcryptModule from "bcrypt";
import { randomBytes } from "node:crypto";
import type { PasswordAlgorithm } from "./config.js";
import { requireDriver } from "./drivers.js";
import { E_PASSWORD_HASH_UNKNOWN, E_PASSWORD_INVALID } from "./errors.js";
import { currentPasswordPolicy, type PasswordOptions } from "./password-policy.js";

export type { PasswordOptions } from "./password-policy.js";

/** bcrypt reads at most 72 bytes; longer passwords would be silently truncated, so they are refused. */
export const BCRYPT_MAX_BYTES = 72;
/** Upper bound for argon2id input, so a huge password cannot tie up the hasher. */
export const ARGON2_MAX_BYTES = 1024;

// `Algorithm` is a const enum in @node-rs/argon2's typings, unusable under isolatedModules.
const ARGON2ID = 2 as Algorithm;
const BCRYPT_PREFIX = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;

// The hashers are native modules loaded at the first hash or verification that needs them: an app
// that never checks a password loads neither, one on bcrypt never loads argon2.
const bcrypt = () => requireDriver<typeof bcryptModule>("bcrypt", "bcrypt password hashing");
const argon2 = () => requireDriver<typeof import("@node-rs/argon2")>("@node-rs/argon2", "argon2 password hashing");

function policy(options: PasswordOptions) {
  return {
    algorithm: options.algorithm ?? "bcrypt",
    bcryptCost: options.bcryptCost ?? 12,
    memoryCost: options.argon2MemoryCost ?? 19456,
    timeCost: options.argon2TimeCost ?? 2,
    parallelism: options.argon2Parallelism ?? 1,
  };
}

function checkPassword(password: string, algorithm: PasswordAlgorithm): void {
  if (typeof password !== "string" || password.length === 0) throw new E_PASSWORD_INVALID("it is empty or not text");
  const bytes = Buffer.byteLength(password, "utf8");
  const max = algorithm === "bcrypt" ? BCRYPT_MAX_BYTES : ARGON2_MAX_BYTES;
  if (bytes > max) {
    throw new E_PASSWORD_INVALID(
      `it is ${bytes} bytes long and ${algorithm} accepts at most ${max}` +
        (algorithm === "bcrypt" ? " (use a shorter one, or argon2id)" : ""),
    );
  }
}

/** Which algorithm made a stored hash; throws `E_PASSWORD_HASH_UNKNOWN` for anything else. */
export function hashAlgorithm(stored: string): PasswordAlgorithm | "argon2i" | "argon2d" {
  if (BCRYPT_PREFIX.test(stored)) return "bcrypt";
  if (stored.startsWith("$argon2id$")) return "argon2id";
  if (stored.startsWith("$argon2i$")) return "argon2i";
  if (stored.startsWith("$argon2d$")) return "argon2d";
  throw new E_PASSWORD_HASH_UNKNOWN(String(stored).slice(0, 7));
}

/**
 * Hashes a password with the configured algorithm (`$2b$...` or `$argon2id$...`). Without
 * `options`, the policy of the app (see password-policy.ts), so a view's call honours the config.
 */
export async function hashPassword(
  password: string,
  options: PasswordOptions = currentPasswordPolicy(),
): Promise<string> {
  const p = policy(options);
  checkPassword(password, p.algorithm);
  if (p.algorithm === "argon2id") {
    return argon2().hash(password, {
      algorithm: ARGON2ID,
      memoryCost: p.memoryCost,
      timeCost: p.timeCost,
      parallelism: p.parallelism,
    });
  }
  return bcrypt().hash(password, p.bcryptCost);
}

/**
 * True when `password` matches `stored`, whichever supported algorithm made it ($2a$, $2b$, $2y$,
 * $argon2id$, $argon2i$, $argon2d$). A password too long for the hash's algorithm never matches.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const algorithm = hashAlgorithm(stored);
  if (typeof password !== "string" || password.length === 0) return false;
  const bytes = Buffer.byteLength(password, "utf8");
  if (algorithm === "bcrypt") {
    if (bytes > BCRYPT_MAX_BYTES) return false;
    // $2y$ (PHP) is the same algorithm as $2b$; node's bcrypt only reads the latter.
    return bcrypt().compare(password, stored.startsWith("$2y$") ? `$2b$${stored.slice(4)}` : stored);
  }
  if (bytes > ARGON2_MAX_BYTES) return false;
  const { verify } = argon2();
  try {
    return await verify(stored, password);
  } catch {
    throw new E_PASSWORD_HASH_UNKNOWN(stored.slice(0, 10));
  }
}

/** True when `stored` was made with another algorithm or other costs than the policy (default: the app's). */
export function needsRehash(stored: string, options: PasswordOptions = currentPasswordPolicy()): boolean {
  const p = policy(options);
  const algorithm = hashAlgorithm(stored);
  if (algorithm !== p.algorithm) return true;
  if (algorithm === "bcrypt") return Number(BCRYPT_PREFIX.exec(stored)![1]) !== p.bcryptCost;
  try {
    const params = argon2().parseOptions(stored);
    return params.memoryCost !== p.memoryCost || params.timeCost !== p.timeCost || params.parallelism !== p.parallelism;
  } catch {
    return true;
  }
}

// bcrypt's own base64 alphabet (not RFC 4648's).
const BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A hash of no password, in the policy's algorithm and costs, for accounts that do not exist (or
 * have no password): verifying against it costs exactly what verifying a real user's hash costs,
 * so the answer time does not tell whether an account exists. Random salt and digest (nobody
 * knows a preimage), written in the hash format directly, so it is made at start-up without
 * loading the hashing driver.
 */
export function dummyHash(options: PasswordOptions = {}): string {
  const p = policy(options);
  if (p.algorithm === "argon2id") {
    const b64 = (bytes: number) => randomBytes(bytes).toString("base64").replace(/=+$/, "");
    return `$argon2id$v=19$m=${p.memoryCost},t=${p.timeCost},p=${p.parallelism}$${b64(16)}$${b64(32)}`;
  }
  const chars = Array.from(randomBytes(53), (byte) => BCRYPT_ALPHABET[byte & 63]);
  // The salt's 22nd character carries only 2 significant bits: keep it canonical (., O, e, u).
  chars[21] = ".Oeu"[randomBytes(1)[0]! & 3]!;
  return `$2b$${String(p.bcryptCost).padStart(2, "0")}$${chars.join("")}`;
}
