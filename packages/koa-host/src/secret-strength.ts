/**
 * What a secret must be to sign cookies and tokens in production: long, not one character
 * repeated, none of the placeholders this project writes into generated files and docs, and worth
 * enough guessing once repeated parts, counting runs and common words are discounted
 * (secret-entropy.ts): `keyboard cat keyboard cat keyboard cat` or `0123456789abcdef0123456789abcdef`
 * are long but weak.
 * The host checks `secretKey` when it loads the config; the security battery checks the same
 * rule for `secretKeyFallbacks` and `jwtSecret`.
 */
import { E_WEAK_SECRET_KEY } from "./errors.js";
import { secretBits } from "./secret-entropy.js";

/** The fewest characters a production secret has (32 random bytes in base64url are 43). */
export const MIN_SECRET_LENGTH = 32;

/** The fewest different characters it has: a random key of 32 hex digits has 14 or so. */
export const MIN_SECRET_DISTINCT = 8;

/**
 * The fewest bits of guessing a production secret is worth (estimated, see secret-entropy.ts):
 * 32 random hex digits are worth 128 (never under 110 in 20,000 draws), 32 random bytes in
 * base64url about 250; the weak keys of tutorials and of this repository's tests stay under 95.
 */
export const MIN_SECRET_BITS = 100;

/**
 * Placeholders the project itself writes (generated deploy files, scaffolds, docs, the
 * development default): refused in production whatever their length.
 */
export const SECRET_PLACEHOLDERS: readonly string[] = Object.freeze([
  "replace-with-a-long-random-string",
  "insecure-development-secret-key-change-me",
]);

/** Words that mark a value as a placeholder rather than a key (a random key never holds them). */
const PLACEHOLDER_WORDS =
  /replace[-_. ]?(me|with|this)|change[-_. ]?(me|this)|your[-_ ]?(own[-_ ]?)?secret|placeholder|not[-_ ]?a[-_ ]?secret|example[-_ ]?secret/i;

/** How to make a key, named in the error. */
export const SECRET_HOW_TO =
  "make one with `node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"` or `openssl rand -base64 32`";

/** Why a secret is too weak for production, or undefined when it passes the rule. */
export function secretWeakness(secret: string): string | undefined {
  const value = secret.trim();
  if (SECRET_PLACEHOLDERS.includes(value.toLowerCase()) || PLACEHOLDER_WORDS.test(value))
    return "it is a placeholder, not a key";
  if (value.length < MIN_SECRET_LENGTH)
    return `it has ${value.length} character${value.length === 1 ? "" : "s"}, fewer than ${MIN_SECRET_LENGTH}`;
  const distinct = new Set(value).size;
  if (distinct < MIN_SECRET_DISTINCT)
    return `it uses only ${distinct} different characters (at least ${MIN_SECRET_DISTINCT}: a random key)`;
  const bits = secretBits(value);
  if (bits < MIN_SECRET_BITS)
    return `it is worth about ${Math.round(bits)} bits of guessing, fewer than ${MIN_SECRET_BITS} (repeated parts, counting runs such as 0123 or abcd, and common words count for little)`;
  return undefined;
}

/**
 * Throws `E_WEAK_SECRET_KEY` when `secret` fails the production rule; `setting` names where it
 * came from (`SECRET_KEY (secretKey)`, `jwtSecret`...). Call it only in production.
 */
export function assertStrongSecret(setting: string, secret: string): void {
  const reason = secretWeakness(secret);
  if (reason) throw new E_WEAK_SECRET_KEY(setting, reason, SECRET_HOW_TO);
}
