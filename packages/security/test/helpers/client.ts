/**
 * A small browser stand-in over node's fetch: keeps cookies per client (honouring deletions),
 * never follows redirects, and exposes each Set-Cookie's attributes for flag assertions.
 */

/** One Set-Cookie header, parsed. */
export interface SetCookie {
  readonly name: string;
  readonly value: string;
  /** Lower-cased attribute names to their values (`""` for flags such as HttpOnly). */
  readonly attributes: Record<string, string>;
}

/** A response with its body read. */
export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly setCookies: readonly SetCookie[];
  json<T = Record<string, unknown>>(): T;
}

/** Parses a Set-Cookie header value. */
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

/** Request options of {@link Client.request}. */
export interface RequestOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  readonly form?: Record<string, string>;
  /** Sent as application/json. */
  readonly json?: unknown;
  /** Do not send the jar's cookies. */
  readonly noCookies?: boolean;
}

/** A client with a cookie jar. */
export class Client {
  readonly base: string;
  readonly jar = new Map<string, string>();

  constructor(base: string) {
    this.base = base;
  }

  /** The `Cookie` header the jar would send. */
  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request(path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    if (!options.noCookies && this.jar.size > 0 && headers["cookie"] === undefined) headers["cookie"] = this.cookieHeader();
    const response = await fetch(this.base + path, { method: options.method ?? (body ? "POST" : "GET"), headers, body, redirect: "manual" });
    const text = await response.text();
    const setCookies = response.headers.getSetCookie().map(parseSetCookie);
    for (const cookie of setCookies) {
      const expired = cookie.value === "" || cookie.attributes["max-age"] === "0" || (cookie.attributes["expires"] !== undefined && Date.parse(cookie.attributes["expires"]) <= Date.now());
      if (expired) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    return {
      status: response.status,
      headers: response.headers,
      text,
      setCookies,
      json<T>() {
        return JSON.parse(text) as T;
      },
    };
  }

  get(path: string, options: Omit<RequestOptions, "method"> = {}): Promise<TestResponse> {
    return this.request(path, { ...options, method: "GET" });
  }

  post(path: string, options: Omit<RequestOptions, "method"> = {}): Promise<TestResponse> {
    return this.request(path, { ...options, method: "POST" });
  }
}
