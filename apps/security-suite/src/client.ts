/**
 * An attacker's (or a victim's) HTTP client: a cookie jar, no redirects followed, and the
 * `X-Forwarded-Proto: https` a TLS-terminating proxy adds in production, so the apps under attack
 * (configured with `trustProxy`) treat requests as HTTPS and send their `Secure` cookies.
 */
import assert from "node:assert/strict";

/** One answer, body read. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** A cookie-keeping client of one app. */
export interface Client {
  /** Sends a request (path relative to the app) with the jar's cookies; keeps the cookies it gets. */
  send(path: string, init?: RequestInit): Promise<Answer>;
  /** POSTs an URL-encoded form. */
  form(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Answer>;
  /** The cookies held, by name. */
  readonly cookies: Map<string, string>;
  /** Every `Set-Cookie` line received, in order. */
  readonly setCookies: string[];
}

/** The `_csrf_token` value a page's form carries. */
export function csrfFrom(html: string): string {
  const match = /name="_csrf_token" value="([^"]+)"/.exec(html) ?? /value="([^"]+)" name="_csrf_token"/.exec(html);
  if (!match) assert.fail(`no CSRF token in the page:\n${html.slice(0, 600)}`);
  return match[1]!;
}

/** Makes a client of the app at `base` (`http://127.0.0.1:<port>`). */
export function client(base: string): Client {
  const cookies = new Map<string, string>();
  const setCookies: string[] = [];
  const self: Client = {
    cookies,
    setCookies,
    async send(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("x-forwarded-proto")) headers.set("x-forwarded-proto", "https");
      if (cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
      const res = await fetch(base + path, { ...init, headers, redirect: "manual" });
      for (const line of res.headers.getSetCookie()) {
        setCookies.push(line);
        const [pair] = line.split(";");
        const index = pair!.indexOf("=");
        const name = pair!.slice(0, index).trim();
        const value = pair!.slice(index + 1).trim();
        if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
      return { status: res.status, headers: res.headers, text: await res.text() };
    },
    form(path, fields, headers = {}) {
      return self.send(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(fields).toString(),
      });
    },
  };
  return self;
}
