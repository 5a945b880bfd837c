import type { ClientResponse } from "./client.js";

/** Keeps the cookies one client was given, like a browser (by name; paths and expiry are not tracked). */
export class Jar {
  readonly #cookies = new Map<string, string>();
  /** The `cookie` header of the next request (none while the jar is empty). */
  header(): Record<string, string> {
    return this.#cookies.size ? { cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {};
  }
  /** Keeps the cookies a response sets, and gives the response back. */
  keep(response: ClientResponse): ClientResponse {
    const raw = response.headers["set-cookie"];
    for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const pair = line.split(";")[0]!;
      const at = pair.indexOf("=");
      this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return response;
  }
}
