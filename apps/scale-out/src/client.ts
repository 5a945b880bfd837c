// A fetch with a cookie jar (a browser's session), never following redirects.
import assert from "node:assert/strict";

/** A cookie-keeping client of one base URL; `at(base)` shares the jar with another base URL. */
export interface Client {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  page(path: string): Promise<{ status: number; text: string }>;
  json<T = Record<string, unknown>>(path: string): Promise<T>;
  form(path: string, fields: Record<string, string>): Promise<Response>;
  at(base: string, headers?: Record<string, string>): Client;
  readonly cookies: Map<string, string>;
}

/** The `_csrf_token` a page's form carries. */
export function csrfFrom(html: string): string {
  const match = /name="_csrf_token" value="([^"]+)"/.exec(html) ?? /name="csrf-token" content="([^"]+)"/.exec(html);
  if (!match) assert.fail(`no CSRF token in the page:\n${html.slice(0, 400)}`);
  return match[1]!;
}

/** Makes a client; `headers` go with every request (X-Forwarded-Proto for direct node requests). */
export function client(base: string, headers: Record<string, string> = {}, cookies = new Map<string, string>()): Client {
  const self: Client = {
    cookies,
    async fetch(path, init = {}) {
      const all = new Headers(init.headers);
      for (const [name, value] of Object.entries(headers)) all.set(name, value);
      all.set("connection", "close");
      if (cookies.size > 0) all.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
      const res = await fetch(base + path, { ...init, headers: all, redirect: "manual" });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const index = pair!.indexOf("=");
        const name = pair!.slice(0, index).trim();
        const value = pair!.slice(index + 1).trim();
        if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
      return res;
    },
    async page(path) {
      const res = await self.fetch(path);
      return { status: res.status, text: await res.text() };
    },
    async json<T>(path: string) {
      const res = await self.fetch(path);
      const text = await res.text();
      if (res.status !== 200) assert.fail(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    },
    form(path, fields) {
      return self.fetch(path, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
    },
    at(other, extra = headers) {
      return client(other, extra, cookies);
    },
  };
  return self;
}
