/** A fetch client with a cookie jar, for tests over real HTTP on 127.0.0.1. */
export class Browser {
  readonly #cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  /** Sends a request with the jar's cookies, keeps the cookies the answer sets, never follows redirects. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.#cookies.size) headers.set("cookie", [...this.#cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(this.base + path, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    return res;
  }

  /** Posts a URL-encoded form. */
  form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, { method: "POST", body: new URLSearchParams(fields), headers });
  }

  /** Reads the CSRF token from a page's hidden `_csrf_token` field. */
  async csrfFrom(path: string): Promise<string> {
    const html = await (await this.fetch(path)).text();
    const match = /name="_csrf_token" value="([^"]+)"/.exec(html);
    if (!match) throw new Error(`no _csrf_token field on ${path}`);
    return match[1]!;
  }
}
