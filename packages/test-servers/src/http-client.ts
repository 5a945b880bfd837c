/**
 * The one cookie-keeping HTTP client of the repository's tests: a browser stand-in over node's
 * fetch for apps served on 127.0.0.1. It keeps a cookie jar (honouring deletions), does not follow
 * redirects unless asked (tests assert the 302/303 themselves), and reads the CSRF token a page
 * carries. Every package and app uses this one; conformance keeps its own small jar, since its
 * boundary allows only the kernel.
 */
import assert from "node:assert/strict";

/** One `Set-Cookie` header, parsed. */
export interface SetCookie {
  readonly name: string;
  readonly value: string;
  /** Lower-cased attribute names to their values (`""` for flags such as HttpOnly). */
  readonly attributes: Readonly<Record<string, string>>;
}

/** An answer with its body read. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The answer's `Set-Cookie` headers, parsed. */
  readonly setCookies: readonly SetCookie[];
  /** The body parsed as JSON. */
  json<T = Record<string, unknown>>(): T;
}

/** Options of {@link HttpClient.request}. */
export interface HttpRequestOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  readonly form?: Record<string, string>;
  /** Sent as application/json. */
  readonly json?: unknown;
  /** Send none of the jar's cookies with this request. */
  readonly noCookies?: boolean;
}

/** Options of {@link httpClient}. */
export interface HttpClientOptions {
  /**
   * Headers sent with every request unless the request sets them itself
   * (`X-Forwarded-Proto: https` for an app behind a TLS-terminating proxy).
   */
  readonly headers?: Record<string, string>;
  /** `"manual"` (the default) answers a redirect as it is; `"follow"` follows it, keeping cookies at each hop. */
  readonly redirect?: "manual" | "follow";
  /** A jar to share with another client (see {@link HttpClient.at}). */
  readonly cookies?: Map<string, string>;
}

/** Form fields; a list sends the field once per value. */
export type FormFields = Record<string, string | readonly string[]>;

const MAX_REDIRECTS = 10;

/** Parses a `Set-Cookie` header value. */
export function parseSetCookie(header: string): SetCookie {
  const [pair = "", ...parts] = header.split(";");
  const eq = pair.indexOf("=");
  const attributes: Record<string, string> = {};
  for (const part of parts) {
    const [key = "", ...rest] = part.trim().split("=");
    attributes[key.toLowerCase()] = rest.join("=");
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
}

/** True when a `Set-Cookie` deletes its cookie: an empty value, `Max-Age=0` or an expiry in the past. */
export function deletesCookie(cookie: SetCookie): boolean {
  const expires = cookie.attributes["expires"];
  return (
    cookie.value === "" ||
    cookie.attributes["max-age"] === "0" ||
    (expires !== undefined && Date.parse(expires) <= Date.now())
  );
}

/**
 * The CSRF token a page carries: its `_csrf_token` form field (either attribute order) or its
 * `csrf-token` meta tag. Fails the test with the start of the page when there is none.
 */
export function csrfFrom(html: string): string {
  const match =
    /name="_csrf_token" value="([^"]+)"/.exec(html) ??
    /value="([^"]+)" name="_csrf_token"/.exec(html) ??
    /name="csrf-token" content="([^"]+)"/.exec(html);
  if (!match) assert.fail(`no CSRF token in the page:\n${html.slice(0, 500)}`);
  return match[1]!;
}

/** The body of a URL-encoded form. */
function formBody(fields: FormFields): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields))
    for (const item of typeof value === "string" ? [value] : value) body.append(key, item);
  return body;
}

/** A cookie-keeping client of the app at one base URL (`http://127.0.0.1:<port>`). */
export class HttpClient {
  /** The app's URL that request paths are relative to. */
  readonly base: string;
  /** The cookies held, by name. */
  readonly cookies: Map<string, string>;
  /** Every `Set-Cookie` line received, in order. */
  readonly setCookieLines: string[] = [];
  readonly #headers: Record<string, string>;
  readonly #redirect: "manual" | "follow";

  constructor(base: string, options: HttpClientOptions = {}) {
    this.base = base.replace(/\/+$/, "");
    this.cookies = options.cookies ?? new Map();
    this.#headers = options.headers ?? {};
    this.#redirect = options.redirect ?? "manual";
  }

  /** The `Cookie` header the jar sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /**
   * Fetches `path` (relative to the base URL, or a full URL) with the jar's cookies (unless the
   * request sets its own `Cookie`) and keeps the cookies the answer sets. Redirects are answered
   * as they are, or followed when the client was made with `redirect: "follow"`.
   */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return this.#fetch(path, init, true);
  }

  async #fetch(path: string, init: RequestInit, withJar: boolean): Promise<Response> {
    let url = /^https?:\/\//.test(path) ? path : this.base + path;
    let request = init;
    for (let hop = 0; ; hop++) {
      const response = await this.#once(url, request, withJar);
      const location = response.headers.get("location");
      if (
        this.#redirect !== "follow" ||
        location === null ||
        response.status < 300 ||
        response.status > 399 ||
        hop === MAX_REDIRECTS
      )
        return response;
      await response.arrayBuffer();
      url = new URL(location, url).href;
      // 307 and 308 repeat the request; the others become a GET without a body, as browsers do.
      if (response.status !== 307 && response.status !== 308) request = { headers: init.headers, method: "GET" };
    }
  }

  async #once(url: string, init: RequestInit, withJar: boolean): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(this.#headers)) if (!headers.has(name)) headers.set(name, value);
    if (withJar && this.cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", this.cookieHeader());
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    this.#keep(response.headers.getSetCookie());
    return response;
  }

  #keep(lines: readonly string[]): SetCookie[] {
    const parsed = lines.map(parseSetCookie);
    for (const [index, cookie] of parsed.entries()) {
      this.setCookieLines.push(lines[index]!);
      if (deletesCookie(cookie)) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return parsed;
  }

  /** Fetches `path` and reads the answer's body. */
  async send(path: string, init: RequestInit = {}): Promise<HttpAnswer> {
    return read(await this.fetch(path, init));
  }

  /** A request with a form or JSON body built from `options`; the method defaults to POST with a body, else GET. */
  async request(path: string, options: HttpRequestOptions = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    return read(
      await this.#fetch(path, { method: options.method ?? (body ? "POST" : "GET"), headers, body }, !options.noCookies),
    );
  }

  /** GET with {@link HttpClient.request}'s options. */
  get(path: string, options: Omit<HttpRequestOptions, "method"> = {}): Promise<HttpAnswer> {
    return this.request(path, { ...options, method: "GET" });
  }

  /** POST with {@link HttpClient.request}'s options. */
  post(path: string, options: Omit<HttpRequestOptions, "method"> = {}): Promise<HttpAnswer> {
    return this.request(path, { ...options, method: "POST" });
  }

  /** GET, body read. */
  page(path: string): Promise<HttpAnswer> {
    return this.send(path);
  }

  /** GET of a JSON answer; anything but a 200 throws with the status and the start of the body. */
  async json<T = Record<string, unknown>>(path: string): Promise<T> {
    const answer = await this.send(path);
    if (answer.status !== 200) assert.fail(`GET ${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
    return answer.json<T>();
  }

  /** POSTs an URL-encoded form. */
  form(path: string, fields: FormFields, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, {
      method: "POST",
      body: formBody(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });
  }

  /** POSTs an URL-encoded form and reads the answer's body. */
  async submit(path: string, fields: FormFields, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    return read(await this.form(path, fields, headers));
  }

  /** GETs a page and returns the CSRF token it carries (see {@link csrfFrom}). */
  async csrfToken(path: string): Promise<string> {
    return csrfFrom((await this.send(path)).text);
  }

  /** A client of another base URL sharing this jar (a browser visiting another node of a cluster). */
  at(base: string, headers: Record<string, string> = this.#headers): HttpClient {
    return new HttpClient(base, { headers, cookies: this.cookies, redirect: this.#redirect });
  }
}

/** Makes a cookie-keeping client of the app at `base`. */
export function httpClient(base: string, options: HttpClientOptions = {}): HttpClient {
  return new HttpClient(base, options);
}

async function read(response: Response): Promise<HttpAnswer> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    setCookies: response.headers.getSetCookie().map(parseSetCookie),
    json<T>() {
      return JSON.parse(text) as T;
    },
  };
}
