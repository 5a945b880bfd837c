import { randomUUID } from "node:crypto";
import type { Context } from "koa";
import type { InjectOptions } from "light-my-request";
import type { UrlParams, ViewClass } from "routing-kernel";
import { loadAppDefinition } from "../app-definition.js";
import { E_TEST_CLIENT_LOGIN } from "../errors.js";
import type { Host } from "../host.js";
import type { RouteClassName, RouteMethodArgs, RouteName, RouteNameArgs } from "../route-types/route-params.js";
import { runtimeOf } from "../runtime.js";
import { CookieJar } from "./cookie-jar.js";
import { lightMyRequest } from "./light-my-request.js";
import { TestResponse } from "./test-response.js";

/** The session battery's functions a framework hands the client (fw-a and fw-b pass @fwkit/security's). */
export interface TestClientSession {
  /** A CSRF token for the request's session (`csrfToken` of @fwkit/security). */
  csrfToken(ctx: Context): string;
  /** Logs a user in on the request's session (`login` of @fwkit/security). */
  login(ctx: Context, user: unknown): Promise<void>;
}

/** Options of {@link createTestClient}. */
export interface TestClientOptions {
  /** CSRF tokens and `loginAs` through the session battery; without it neither is available. */
  readonly session?: TestClientSession;
  /** Run by `close()` after the app is closed (a temporary folder the app was built in). */
  readonly cleanup?: () => void;
}

/** One request's extras. */
export interface TestRequestInit {
  /** Request headers (`accept`, `accept-language`, `x-http-method-override`...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Query values appended to the path. */
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  /** A JSON body (sets `content-type: application/json`). */
  readonly json?: unknown;
  /** A form body (sets `content-type: application/x-www-form-urlencoded`). */
  readonly form?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
  /** A raw body (set `content-type` yourself). */
  readonly body?: string | Buffer;
  /** Send the session's CSRF token on an unsafe verb (default true); false to test the refusal. */
  readonly csrf?: boolean;
  /**
   * The `Idempotency-Key` of an unsafe verb: a fresh random key by default (as a generated form
   * sends one), a string to send that key (send it twice to test a replay), false to send none.
   */
  readonly idempotencyKey?: string | false;
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/**
 * A client for an app's own tests, built once for both frameworks: requests go through the app's
 * Koa callback on an in-memory request and response (light-my-request), so no port is opened. It
 * keeps cookies like a browser, sends the session's CSRF token and a fresh `Idempotency-Key` with
 * every unsafe request, and logs a user in with `loginAs(user)` through the session battery's own `login`.
 */
export class TestClient {
  /** The app under test. */
  readonly host: Host;
  /** The cookies kept between requests. */
  readonly cookies = new CookieJar();
  readonly #options: TestClientOptions;
  readonly #handler: ReturnType<Host["callback"]>;
  readonly #internal: string;
  readonly #pendingLogins = new Map<string, unknown>();

  constructor(host: Host, options: TestClientOptions = {}) {
    this.host = host;
    this.#options = options;
    this.#handler = host.callback();
    // Two hand-written routes under an unguessable path, only in this test's app: they run behind
    // the app's own middleware (session, CSRF), so the token and the login are the real ones.
    this.#internal = `/__test-client-${randomUUID()}`;
    const session = options.session;
    host.router.get(`${this.#internal}/csrf`, (ctx) => {
      let token: string | undefined;
      try {
        token = session?.csrfToken(ctx);
      } catch {
        token = undefined; // no session battery: the app checks no CSRF token either
      }
      ctx.body = { token: token ?? null };
    });
    host.router.get(`${this.#internal}/login/:id`, async (ctx) => {
      const id = String(ctx.params["id"]);
      const user = this.#pendingLogins.get(id);
      this.#pendingLogins.delete(id);
      // Answered here rather than thrown, so the app's error log stays quiet; loginAs reports it.
      if (!session) {
        ctx.status = 409;
        ctx.body = { error: "the app was built without the session battery's login" };
        return;
      }
      try {
        await session.login(ctx, user);
        ctx.body = { ok: true };
      } catch (error) {
        ctx.status = 409;
        ctx.body = { error: (error as Error).message };
      }
    });
  }

  /** Sends a request and keeps the cookies it sets. */
  async request(method: string, path: string, init: TestRequestInit = {}): Promise<TestResponse> {
    const verb = method.toUpperCase();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
    let payload: string | Buffer | undefined = init.body;
    if (init.json !== undefined) {
      payload = JSON.stringify(init.json);
      headers["content-type"] ??= "application/json";
    } else if (init.form !== undefined) {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(init.form)) {
        for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
      }
      payload = form.toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    }
    if (!SAFE.has(verb) && init.csrf !== false && headers["x-csrf-token"] === undefined) {
      const token = await this.csrfToken();
      if (token !== undefined) headers["x-csrf-token"] = token;
    }
    if (!SAFE.has(verb) && init.idempotencyKey !== false && headers["idempotency-key"] === undefined)
      headers["idempotency-key"] = init.idempotencyKey ?? randomUUID();
    const query = init.query
      ? new URLSearchParams(Object.entries(init.query).map(([k, v]): [string, string] => [k, String(v)])).toString()
      : "";
    const url = query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path;
    return this.#send({
      method: verb as InjectOptions["method"],
      url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
  }

  /** GET `path`. */
  get(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request("GET", path, init);
  }

  /** HEAD `path`. */
  head(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request("HEAD", path, init);
  }

  /** POST `path` (the CSRF token is sent for you). */
  post(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request("POST", path, init);
  }

  /** PUT `path` (the CSRF token is sent for you). */
  put(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request("PUT", path, init);
  }

  /** PATCH `path` (the CSRF token is sent for you). */
  patch(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request("PATCH", path, init);
  }

  /** DELETE `path` (the CSRF token is sent for you). */
  delete(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request("DELETE", path, init);
  }

  /** OPTIONS `path`. */
  options(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request("OPTIONS", path, init);
  }

  /** A CSRF token of this client's session (starting one), or undefined when the app checks none. */
  async csrfToken(): Promise<string | undefined> {
    const answer = await this.#send({ method: "GET", url: `${this.#internal}/csrf` });
    return answer.status === 200 ? (answer.json<{ token: string | null }>().token ?? undefined) : undefined;
  }

  /**
   * Logs `user` in on this client's session through the session battery's `login` (the session
   * id changes as at a real login), so the next requests are that user's. `user` is what your
   * login view passes to `login(ctx, user)`: usually the user row.
   */
  async loginAs(user: unknown): Promise<void> {
    const id = randomUUID();
    this.#pendingLogins.set(id, user);
    const answer = await this.#send({ method: "GET", url: `${this.#internal}/login/${id}` });
    this.#pendingLogins.delete(id);
    if (answer.status !== 200) throw new E_TEST_CLIENT_LOGIN(answer.status, answer.text().slice(0, 300));
  }

  /** Forgets every cookie: the next request is a new visitor's. */
  logout(): void {
    this.cookies.clear();
  }

  /** The URL of a route, as `this.urlFor(...)` builds it in a view (typed by the app's generated routes). */
  urlFor<N extends RouteName>(name: N, ...params: RouteNameArgs<N>): string;
  /** The URL of a generated route by class and method name. */
  urlFor<C extends RouteClassName, M extends string>(
    className: C,
    methodName: M,
    ...params: RouteMethodArgs<C, M>
  ): string;
  /** The URL of a route by view class (and method, `index` by default). */
  urlFor(view: ViewClass, methodOrParams?: string | UrlParams, params?: UrlParams): string;
  urlFor(target: string | ViewClass, methodOrParams?: string | UrlParams, params?: UrlParams): string {
    return runtimeOf(this.host.koa.context).basePath + this.host.table.urlFor(target, methodOrParams, params);
  }

  /** Closes the app (its plugins, database and store connections) and removes what was built for it. */
  async close(): Promise<void> {
    try {
      await this.host.close();
    } finally {
      this.#options.cleanup?.();
    }
  }

  async #send(options: InjectOptions): Promise<TestResponse> {
    const cookie = this.cookies.header();
    const headers = { ...(options.headers as Record<string, string> | undefined), ...(cookie ? { cookie } : {}) };
    const response = await lightMyRequest()(this.#handler as never, { ...options, headers });
    this.cookies.store(response.headers["set-cookie"] as string | string[] | undefined);
    return new TestResponse(response);
  }
}

/** A test client for a built app. */
export function createTestClient(host: Host, options: TestClientOptions = {}): TestClient {
  return new TestClient(host, options);
}

/** Options of {@link loadTestClient}. */
export interface LoadTestClientOptions extends TestClientOptions {
  /** Which app of a multi-application codebase. */
  readonly appName?: string;
  /** Config keys over the app's own (the environment is `test` and request logs are off unless given). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/**
 * Builds the app of a folder (its `app.ts`) as the CLI does, in the `test` environment without
 * request logs, and returns a client for it.
 */
export async function loadTestClient(root: string, options: LoadTestClientOptions = {}): Promise<TestClient> {
  const definition = await loadAppDefinition(root, options.appName);
  const host = await definition.create({ config: { env: "test", logRequests: false, ...options.config } });
  return new TestClient(host, options);
}
