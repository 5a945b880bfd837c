/**
 * `claimOnce(ctx, key, seconds)`: a one-time use that holds across requests, workers and nodes,
 * for values a client can replay (a captcha answer kept in a signed cookie session, a nonce):
 * true the first time `key` is claimed within `seconds`, false for every later claim, decided in
 * one atomic step on the limiter's counters (memory, the node's cluster primary, or Redis).
 */
import { createHash } from "node:crypto";
import type { Context } from "koa";
import { E_RATE_LIMIT_UNAVAILABLE } from "./errors.js";
import { runtimeOf } from "./runtime.js";

/** True the first time `key` is claimed within `seconds`; false afterwards. 503 when the counters cannot be reached. */
export async function claimOnce(ctx: Context, key: string, seconds: number): Promise<boolean> {
  const { counter } = runtimeOf(ctx, "claimOnce()");
  const hashed = `once:${createHash("sha256").update(key).digest("base64url")}`;
  try {
    return (await counter.take([{ key: hashed, limit: 1 }], Math.max(1, Math.ceil(seconds)) * 1000)).allowed;
  } catch (error) {
    throw Object.assign(new E_RATE_LIMIT_UNAVAILABLE(), { cause: error });
  }
}
