/**
 * Flash messages: set during one request, shown once on the next (or on this one, if it renders
 * a page). Kept in `ctx.session` (the security package's koa-session), so they survive the
 * redirect after a form post and work across processes. Validation failures of HTML forms travel
 * the same way, with the per-field errors and the old input.
 */
import type { Middleware } from "koa";
import { E_NO_SESSION } from "./errors.js";
import { boundFieldErrors, boundOldInput } from "./refused-input.js";
import type { FieldErrors } from "./validate.js";

/** One flash message. */
export interface FlashMessage {
  /** `success`, `info`, `warning`, `error`... (a CSS class in most layouts). */
  readonly kind: string;
  readonly message: string;
}

/** What travels in the session between two requests. */
export interface FlashData {
  messages: FlashMessage[];
  errors: FieldErrors;
  old: Record<string, unknown>;
}

/** Template locals: `flash_messages`, `errors` (per field) and `old` (previous input). */
export interface FlashLocals {
  readonly flash_messages: readonly FlashMessage[];
  readonly errors: FieldErrors;
  readonly old: Record<string, unknown>;
}

/** The session key flash data is stored under (no leading "_": koa-session does not save those). */
export const FLASH_SESSION_KEY = "flash";

/** The request parts flash needs: a session (koa-session's `ctx.session`). */
export interface FlashContext {
  readonly session?: Record<string, unknown> | null;
}

const incoming = new WeakMap<object, FlashData>();

function empty(): FlashData {
  return { messages: [], errors: {}, old: {} };
}

function sessionOf(ctx: object): Record<string, unknown> | undefined {
  const session = (ctx as FlashContext).session;
  return session && typeof session === "object" ? session : undefined;
}

/** True when the request has a session to carry flash data. */
export function hasSession(ctx: object): boolean {
  return sessionOf(ctx) !== undefined;
}

function outgoing(ctx: object, what: string): FlashData {
  const session = sessionOf(ctx);
  if (!session) throw new E_NO_SESSION(what);
  const current = session[FLASH_SESSION_KEY] as FlashData | undefined;
  const data: FlashData = {
    messages: Array.isArray(current?.messages) ? [...current.messages] : [],
    errors: { ...(current?.errors ?? {}) },
    old: { ...(current?.old ?? {}) },
  };
  return data;
}

function store(ctx: object, data: FlashData): void {
  sessionOf(ctx)![FLASH_SESSION_KEY] = data;
}

/** Adds a message shown once on the next page rendered (this request's or the next one's). */
export function flash(ctx: object, kind: string, message: string): void {
  const data = outgoing(ctx, "flash()");
  data.messages.push({ kind, message });
  store(ctx, data);
}

/**
 * Stores per-field errors and old input for the next request (after a failed form post), within
 * `REFUSED_INPUT_LIMITS`: whatever was posted, a refused form adds a bounded number of bytes
 * to the session (a cookie, or a server-side store).
 */
export function flashInput(ctx: object, errors: FieldErrors, old: Record<string, unknown>): void {
  const data = outgoing(ctx, "Redirecting a failed form with its errors");
  data.errors = boundFieldErrors({ ...data.errors, ...errors });
  data.old = boundOldInput({ ...data.old, ...old });
  store(ctx, data);
}

/**
 * Takes the flash data the previous request left in the session, so it is shown on this request
 * only; run on every request, after the session. A request that sent no cookie has no session
 * data, so its session is not even made.
 */
export function takeIncomingFlash(ctx: object): void {
  if (!(ctx as { headers?: Record<string, unknown> }).headers?.["cookie"]) return;
  const session = sessionOf(ctx);
  const data = session?.[FLASH_SESSION_KEY] as FlashData | undefined;
  if (session && data) {
    delete session[FLASH_SESSION_KEY];
    incoming.set(ctx, { messages: data.messages ?? [], errors: data.errors ?? {}, old: data.old ?? {} });
  }
}

/** {@link takeIncomingFlash} as a middleware of its own (the data plugin runs it in its one layer). */
export function flashMiddleware(): Middleware {
  return (ctx, next) => {
    takeIncomingFlash(ctx);
    return next();
  };
}

/**
 * The flash data to render on this request: what the previous request left plus what this one
 * flashed. Reading it consumes this request's own flashes (they are being shown now).
 */
export function flashLocals(ctx: object): FlashLocals {
  const previous = incoming.get(ctx) ?? empty();
  const session = sessionOf(ctx);
  const pending = session?.[FLASH_SESSION_KEY] as FlashData | undefined;
  if (!pending) return { flash_messages: previous.messages, errors: previous.errors, old: previous.old };
  delete session![FLASH_SESSION_KEY];
  const merged: FlashData = {
    messages: [...previous.messages, ...(pending.messages ?? [])],
    errors: { ...previous.errors, ...(pending.errors ?? {}) },
    old: { ...previous.old, ...(pending.old ?? {}) },
  };
  incoming.set(ctx, merged);
  return { flash_messages: merged.messages, errors: merged.errors, old: merged.old };
}
