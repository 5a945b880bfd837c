/** A fetch with a cookie jar, for tests that need a session across requests. */
export interface Client {
  /** Fetches `path` (relative to the app URL) with the jar's cookies; never follows redirects. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** GET, then the body as text. */
  page(path: string): Promise<{ status: number; text: string; headers: Headers }>;
  /** POST an URL-encoded form. */
  form(path: string, fields: Record<string, string | readonly string[]>, headers?: Record<string, string>): Promise<Response>;
  /** The cookies held, by name. */
  readonly cookies: Map<string, string>;
}

/** The `csrf_token()` value a page put in its `_csrf_token` field or `csrf` meta tag. */
export function csrfFrom(html: string): string {
  const match = /name="_csrf_token" value="([^"]+)"/.exec(html) ?? /name="csrf-token" content="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in the page:\n${html.slice(0, 500)}`);
  return match[1]!;
}

/** Makes a cookie-keeping client of the app at `base`. */
export function client(base: string): Client {
  const cookies = new Map<string, string>();
  const self: Client = {
    cookies,
    async fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (cookies.size > 0) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
      const res = await fetch(base + path, { ...init, headers, redirect: "manual" });
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
      return { status: res.status, text: await res.text(), headers: res.headers };
    },
    form(path, fields, headers = {}) {
      const body = new URLSearchParams();
      for (const [key, value] of Object.entries(fields)) for (const item of typeof value === "string" ? [value] : value) body.append(key, item);
      return self.fetch(path, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
    },
  };
  return self;
}
