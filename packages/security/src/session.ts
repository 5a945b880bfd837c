/**
 * Sessions on koa-session. Cookie sessions (the default) keep the data in the cookie; with a
 * store, the cookie holds only a random id. Either way the cookie value is signed with an
 * HMAC-SHA256 key derived from the secret key, so forged, truncated or oversized cookies are
 * ignored (the request gets a fresh session). Store failures become a 503.
 */
import { randomBytes } from "node:crypto";
import type { Context, Middleware } from "koa";
import { defineSlot } from "@fwkit/koa-host/plugin";
import { markOutageReported, type OutageLog } from "@fwkit/battery-kit";
import type { createSession as CreateSession } from "koa-session";
import { requireDriver } from "./drivers.js";
import { E_SESSION_COOKIE_TOO_LARGE, E_SESSION_NOT_CONFIGURED, E_SESSION_STORE_UNAVAILABLE } from "./errors.js";
import { createSigner } from "./signing.js";
import type { SessionData, SessionStore } from "./stores/store.js";

/** The session of a request: app data plus koa-session's `regenerate()` and `save()`. */
export interface Session extends Record<string, unknown> {
  /** True when the session did not exist before this request. */
  readonly isNew: boolean;
  /** Replaces the session id (or cookie) now, keeping the data. */
  regenerate(): Promise<void>;
  /** Saves the session now, even unchanged. */
  save(): Promise<void>;
}

/** Options of {@link sessionMiddleware}. */
export interface SessionMiddlewareOptions {
  /** Secret keys: the first signs, all verify. */
  readonly secrets: readonly string[];
  /** Cookie name (default `session`). */
  readonly cookieName?: string;
  /** Lifetime in seconds (default one day). */
  readonly maxAge?: number;
  /**
   * Lifetime in seconds of a session nobody is logged in to (a flash message, a language choice);
   * default `maxAge`. Such a session gets `maxAge` again at login.
   */
  readonly anonymousMaxAge?: number;
  /** Mark the cookie `Secure`; also lets Koa send it when TLS ends at a proxy. */
  readonly secure?: boolean;
  /** Server-side store; cookie sessions when absent. */
  readonly store?: SessionStore;
  /**
   * Keeps the log of the store's outages (`outageLog` from koa-host): told about every failure (the
   * client gets a 503, not logged again per request) and every success (the store is back).
   */
  readonly storeOutage?: OutageLog;
}

/** The session key of the data battery's flash data (messages, a refused form's errors and old input). */
const FLASH_KEY = "flash";

/** Browsers keep at most about 4 KB per cookie; a longer value is not ours. */
export const MAX_COOKIE_LENGTH = 4096;
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
const requestState = defineSlot<RequestState>("fw-security.session-request");

interface RequestState {
  readonly cookieName: string;
  readonly store: SessionStore | undefined;
  /** The id the next `genid` call returns (set by `regenerateSession`). */
  nextId?: string;
  /** The store id of this request's session. */
  id?: string;
  /** True once `ctx.session` was read or assigned during this request. */
  touched?: boolean;
}

/** A new random session id (256 bits, base64url). */
export function newSessionId(): string {
  return randomBytes(32).toString("base64url");
}

function stateOf(ctx: Context): RequestState | undefined {
  return requestState.get(ctx);
}

/** Signed-cookie codec: JSON, base64url, HMAC. Anything that does not verify is a SyntaxError, i.e. a fresh session. */
function cookieCodec(secrets: readonly string[]) {
  const signer = createSigner(secrets, "session-cookie");
  const seal = (data: SessionData): string => signer.sign(Buffer.from(JSON.stringify(data)).toString("base64url"));
  return {
    encode: (data: SessionData): string => {
      let value = seal(data);
      // A refused form's flash data (the data battery's, under "flash") is client input: when it is
      // what no longer fits, its old input and field messages are dropped, never the request (no 500).
      const flash = data[FLASH_KEY];
      if (value.length > MAX_COOKIE_LENGTH && flash && typeof flash === "object" && !Array.isArray(flash)) {
        const { messages } = flash as { messages?: unknown };
        value = seal({
          ...data,
          [FLASH_KEY]: { messages: Array.isArray(messages) ? messages.slice(0, 1) : [], errors: {}, old: {} },
        });
      }
      if (value.length > MAX_COOKIE_LENGTH) throw new E_SESSION_COOKIE_TOO_LARGE(value.length, MAX_COOKIE_LENGTH);
      return value;
    },
    decode: (value: string): SessionData => {
      const payload = value.length <= MAX_COOKIE_LENGTH ? signer.unsign(value) : undefined;
      if (payload === undefined) throw new SyntaxError("unsigned session cookie");
      const data: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      if (data === null || typeof data !== "object" || Array.isArray(data))
        throw new SyntaxError("session cookie is not an object");
      return data as SessionData;
    },
  };
}

/** koa-session's store contract over a {@link SessionStore}, with id checks and 503s. */
function storeAdapter(store: SessionStore, outage: OutageLog | undefined) {
  const guard = async <T>(action: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      result = await action();
    } catch (error) {
      const unavailable = Object.assign(new E_SESSION_STORE_UNAVAILABLE(store.kind), { cause: error });
      if (!outage) throw unavailable;
      outage.failed(error);
      throw markOutageReported(unavailable);
    }
    outage?.recovered();
    return result;
  };
  return {
    get: (id: string) => (ID_PATTERN.test(id) ? guard(() => store.get(id)) : Promise.resolve(undefined)),
    set: (id: string, data: SessionData, maxAge: unknown) => {
      const expiresAt =
        typeof data["_expire"] === "number"
          ? data["_expire"]
          : Date.now() + (typeof maxAge === "number" ? maxAge : DAY_MS);
      return guard(() => store.set(id, data, expiresAt));
    },
    destroy: (id: string) => (ID_PATTERN.test(id) ? guard(() => store.destroy(id)) : Promise.resolve()),
  };
}

/**
 * Session middleware. Needs no access to the Koa app at build time (plugins get none): koa-session
 * is attached to each app on its first request.
 */
export function sessionMiddleware(options: SessionMiddlewareOptions): Middleware {
  const cookieName = options.cookieName ?? "session";
  const store = options.store;
  const signer = createSigner(options.secrets, "session-id");
  const maxAge = (options.maxAge ?? 24 * 60 * 60) * 1000;
  const anonymousMaxAge =
    options.anonymousMaxAge === undefined ? maxAge : Math.min(maxAge, options.anonymousMaxAge * 1000);
  const sessionOptions: Record<string, unknown> = {
    key: cookieName,
    maxAge,
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure ?? false,
    // Signed by this module (HMAC-SHA256 inside the value), not by Koa's keys.
    signed: false,
    overwrite: true,
    renew: true,
    // Each save decides the lifetime: a visitor's session without a login lives a short time.
    beforeSave: (_ctx: Context, session: { maxAge: number } & Record<string, unknown>) => {
      const wanted = typeof session[USER_ID_KEY] === "string" ? maxAge : anonymousMaxAge;
      if (session.maxAge !== wanted) session.maxAge = wanted;
    },
    genid: (ctx: Context) => {
      const state = stateOf(ctx)!;
      const id = state.nextId ?? newSessionId();
      state.nextId = undefined;
      state.id = id;
      return id;
    },
  };
  if (store) {
    sessionOptions["store"] = storeAdapter(store, options.storeOutage);
    sessionOptions["externalKey"] = {
      get: (ctx: Context): string => {
        const raw = ctx.cookies.get(cookieName);
        const id = raw && raw.length <= 256 ? signer.unsign(raw) : undefined;
        if (!id || !ID_PATTERN.test(id)) return "";
        stateOf(ctx)!.id = id;
        return id;
      },
      set: (ctx: Context, id: string): void => {
        const current = (ctx as unknown as { sessionOptions: Record<string, unknown> }).sessionOptions;
        ctx.cookies.set(cookieName, signer.sign(id), current);
      },
    };
  } else {
    Object.assign(sessionOptions, cookieCodec(options.secrets));
  }
  const perApp = new WeakMap<object, Middleware>();
  // koa-session's CommonJS build, required when the middleware is made: under a TypeScript loader
  // (the development server) its ES build and zod's would each go through the loader's hooks, which
  // costs a few hundred milliseconds of start-up more than require() for the same code.
  const { createSession } = requireDriver<{ createSession: typeof CreateSession }>("koa-session", "session middleware");
  // Not an async function: koa-session's promise is handed on, one promise less per request.
  return (ctx, next) => {
    let middleware = perApp.get(ctx.app);
    if (!middleware) {
      middleware = createSession({ ...sessionOptions } as never, ctx.app) as Middleware;
      guardSessionProperty(ctx.app.context);
      perApp.set(ctx.app, middleware);
    }
    // Every field from the start: one object shape for every request.
    const state: RequestState = { cookieName, store, touched: false };
    requestState.set(ctx, state);
    // Behind a TLS-terminating proxy Koa sees plain HTTP and would refuse a Secure cookie.
    if (options.secure) ctx.cookies.secure = true;
    if (!store && !mayCarryCookie(ctx.headers.cookie, cookieName)) return withoutCookie(ctx, next, state, middleware);
    return middleware(ctx, next);
  };
}

/** False only when the Cookie header certainly holds no cookie of that name (a cheap substring test). */
export function mayCarryCookie(header: string | undefined, cookieName: string): boolean {
  return header?.includes(`${cookieName}=`) === true;
}

const NOTHING_AFTER: () => Promise<void> = () => Promise.resolve();

/**
 * A cookie-session request that sent no session cookie has no session to read, so koa-session
 * does not run in front of the view (a visitor's first GET costs no session work). If the
 * request makes a session after all (reads or assigns `ctx.session`: a CSRF token, a login, a
 * flash), koa-session runs once the rest of the chain is done, whether it succeeded or threw, and
 * saves it exactly as its own middleware would have at that point (no session was loaded before).
 */
function withoutCookie(
  ctx: Context,
  next: () => Promise<unknown>,
  state: RequestState,
  middleware: Middleware,
): Promise<void> {
  return next().then(
    () => (state.touched ? middleware(ctx, NOTHING_AFTER) : undefined),
    (error: unknown) => {
      if (!state.touched) throw error;
      return middleware(ctx, NOTHING_AFTER).then(() => {
        throw error;
      });
    },
  );
}

/**
 * koa-session puts `ctx.session` on the app's context prototype, so it answers (and makes a new
 * session through `genid`) even for a request that never reached the session middleware: an error
 * page for a static-file probe, a body that failed to parse. For such a request `ctx.session` is
 * `undefined` and assigning it does nothing: nothing would save it, and nothing about it is known.
 */
function guardSessionProperty(context: object): void {
  const original = Object.getOwnPropertyDescriptor(context, "session");
  if (!original?.get || !original.set || (original.get as { [GUARDED]?: true })[GUARDED]) return;
  const { get, set } = original;
  const guardedGet = function (this: Context) {
    const state = stateOf(this);
    if (!state) return undefined;
    state.touched = true;
    return get.call(this);
  };
  Object.defineProperty(guardedGet, GUARDED, { value: true });
  Object.defineProperty(context, "session", {
    configurable: true,
    enumerable: original.enumerable ?? false,
    get: guardedGet,
    set(this: Context, value: unknown) {
      const state = stateOf(this);
      if (!state) return;
      state.touched = true;
      set.call(this, value);
    },
  });
}

const GUARDED = Symbol("fw-security.session-guarded");

/** The request's session; throws when the session middleware did not run. */
export function getSession(ctx: Context, what = "The session"): Session {
  const state = stateOf(ctx);
  const session = state ? ((ctx as unknown as { session: Session | null }).session ?? undefined) : undefined;
  if (!session) throw new E_SESSION_NOT_CONFIGURED(what, state !== undefined);
  return session;
}

/** True when the session middleware ran for this request. */
export function hasSession(ctx: Context): boolean {
  return stateOf(ctx) !== undefined;
}

/**
 * False when this request certainly has no session: the session middleware did not run, or the
 * request sent no session cookie and nothing made a session yet. Reading the session then would
 * only make an empty one.
 */
export function sessionMayExist(ctx: Context): boolean {
  const state = stateOf(ctx);
  if (!state) return false;
  return state.touched === true || mayCarryCookie(ctx.headers.cookie, state.cookieName);
}

/** The name of the session cookie of this request's middleware, if it ran. */
export function sessionCookieName(ctx: Context): string | undefined {
  return stateOf(ctx)?.cookieName;
}

/** The server-side id of the session (store sessions only; cookie sessions have none). */
export function sessionId(ctx: Context): string | undefined {
  const state = stateOf(ctx);
  if (!state?.store) return undefined;
  getSession(ctx, "sessionId()");
  return state.id;
}

/**
 * Gives the session a new id (a new signed cookie for cookie sessions), destroying the old one in
 * the store and keeping the data, and drops the session's CSRF secret (the visitor's CSRF cookie
 * then answers; login puts it back into the session). Call it when privileges change (login does).
 */
export async function regenerateSession(ctx: Context): Promise<void> {
  const session = getSession(ctx, "regenerateSession()");
  delete session[CSRF_SECRET_KEY];
  stateOf(ctx)!.nextId = newSessionId();
  await session.regenerate();
}

/** Ends the session: the store entry is deleted and the cookie cleared when the response is sent. */
export function destroySession(ctx: Context): void {
  getSession(ctx, "destroySession()");
  (ctx as unknown as { session: null }).session = null;
}

/** Session key of the CSRF secret. */
export const CSRF_SECRET_KEY = "$csrf";
/** Session key of the logged-in user's id. */
export const USER_ID_KEY = "$uid";
