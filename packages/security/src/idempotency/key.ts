/**
 * What identifies a request for idempotency: the key the client sends (the `Idempotency-Key`
 * header, or the `_idempotency_key` field a form carries), the client it is scoped to, and the
 * fingerprint of the request it was first used for.
 */
import { createHash } from "node:crypto";
import type { Context } from "koa";
import { CSRF_FIELD } from "../csrf.js";
import { E_IDEMPOTENCY_KEY_INVALID } from "../errors.js";

/** The request header that carries the key. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** The form field that carries the key (what the generated forms send). */
export const IDEMPOTENCY_FIELD = "_idempotency_key";
/** The longest key accepted. */
export const IDEMPOTENCY_KEY_MAX = 255;

const KEY = /^[A-Za-z0-9_.:-]+$/;

/** The request's key (header first, then the form field), or undefined when it sends none; 400 when malformed. */
export function requestKey(ctx: Context): string | undefined {
  const header = ctx.get(IDEMPOTENCY_HEADER);
  const body = ctx.request.body as Record<string, unknown> | undefined;
  const field = body && typeof body === "object" && !Array.isArray(body) ? body[IDEMPOTENCY_FIELD] : undefined;
  const key: unknown = header !== "" ? header : field;
  if (key === undefined) return undefined;
  if (typeof key !== "string" || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !KEY.test(key)) {
    throw new E_IDEMPOTENCY_KEY_INVALID(IDEMPOTENCY_KEY_MAX);
  }
  return key;
}

// JSON with object keys sorted, so the same body written in another key order matches.
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The fingerprint of a request: its method, path, query and parsed body (without the key's and the
 * CSRF token's fields, which differ between renderings of one form), and its uploaded files' names,
 * types and sizes.
 */
export function requestFingerprint(ctx: Context): string {
  const raw = ctx.request.body as unknown;
  let body = raw;
  if (raw && typeof raw === "object" && !Array.isArray(raw) && !Buffer.isBuffer(raw)) {
    const { [IDEMPOTENCY_FIELD]: _key, [CSRF_FIELD]: _token, ...rest } = raw as Record<string, unknown>;
    body = rest;
  } else if (Buffer.isBuffer(raw)) body = raw.toString("base64");
  const files = (ctx.request as { files?: Record<string, unknown> }).files;
  const fileFacts = files
    ? Object.entries(files).map(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map(
          (file: { originalFilename?: string; mimetype?: string; size?: number }) => [
            name,
            file.originalFilename ?? null,
            file.mimetype ?? null,
            file.size ?? null,
          ],
        ),
      )
    : [];
  return createHash("sha256")
    .update(`${ctx.method}\n${ctx.path}\n${ctx.querystring}\n${stable(body)}\n${stable(fileFacts)}`)
    .digest("base64url");
}

/**
 * Who a key belongs to: the credentials the request carries (its `Authorization` header, session
 * cookie and CSRF cookie, hashed), or, with none, its client address. A retry carries the same
 * credentials as the attempt it repeats, so it finds its key; another client, even one that learns
 * the key, looks in another scope and cannot read the first client's answer.
 */
export function clientScope(ctx: Context, cookieNames: readonly string[]): string {
  const parts: string[] = [];
  const authorization = ctx.get("Authorization");
  if (authorization) parts.push(`a=${authorization}`);
  for (const name of cookieNames) {
    const value = ctx.cookies.get(name);
    if (value) parts.push(`c:${name}=${value}`);
  }
  if (parts.length === 0) parts.push(`ip=${ctx.ip}`);
  return createHash("sha256").update(parts.join("\n")).digest("base64url");
}
