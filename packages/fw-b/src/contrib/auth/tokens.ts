import { createHash, randomBytes } from "node:crypto";
import type { ContribModels, TokenRow } from "../models.js";

/** What a mailed link carries: 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function hashOf(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Makes a single-use token for a user; only its hash is stored. Returns the token for the link. */
export async function issueToken(
  models: ContribModels,
  userId: number,
  kind: TokenRow["kind"],
  ttlSeconds: number,
  email: string | null = null,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await models.tokens.create({
    user_id: userId,
    kind,
    token_hash: hashOf(token),
    email,
    expires_at: new Date(Date.now() + ttlSeconds * 1000),
    used_at: null,
  });
  return token;
}

/** The unused, unexpired token row of a link, without using it up (to show the form). */
export async function peekToken(
  models: ContribModels,
  kind: TokenRow["kind"],
  token: string,
): Promise<TokenRow | undefined> {
  if (typeof token !== "string" || !TOKEN.test(token)) return undefined;
  const row = await models.tokens.findBy({ token_hash: hashOf(token), kind });
  if (!row || row.used_at || row.expires_at.getTime() <= Date.now()) return undefined;
  return row;
}

/**
 * Uses a token up: marks it used only if it still is unused (one of two simultaneous requests
 * wins) and returns its row, or undefined for an unknown, used or expired token.
 */
export async function consumeToken(
  models: ContribModels,
  kind: TokenRow["kind"],
  token: string,
): Promise<TokenRow | undefined> {
  const row = await peekToken(models, kind, token);
  if (!row) return undefined;
  const now = new Date();
  const changed = await models.tokens
    .query()
    .where({ id: row.id })
    .whereNull("used_at")
    .update({ used_at: now, updated_at: now } as never);
  return Number(changed) === 1 ? row : undefined;
}

/** Uses up every open token of a kind for a user (after a reset, older links stop working). */
export async function revokeTokens(models: ContribModels, userId: number, kind: TokenRow["kind"]): Promise<void> {
  const now = new Date();
  await models.tokens
    .query()
    .where({ user_id: userId, kind })
    .whereNull("used_at")
    .update({ used_at: now, updated_at: now } as never);
}
