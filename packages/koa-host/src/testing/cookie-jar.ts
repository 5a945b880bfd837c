/**
 * The cookies a test client keeps between requests, as a browser would for one site: set by
 * `Set-Cookie`, removed by an expired one (`Max-Age=0` or a past `Expires`), sent back in `Cookie`.
 * Path and domain are not told apart: a test client talks to one app.
 */
export class CookieJar {
  readonly #values = new Map<string, string>();

  /** The value of a cookie, or undefined. */
  get(name: string): string | undefined {
    return this.#values.get(name);
  }

  /** Sets a cookie by hand (a remembered login, a language choice). */
  set(name: string, value: string): void {
    this.#values.set(name, value);
  }

  /** Forgets one cookie, or all of them (a new visitor). */
  clear(name?: string): void {
    if (name === undefined) this.#values.clear();
    else this.#values.delete(name);
  }

  /** The names of the cookies held. */
  names(): string[] {
    return [...this.#values.keys()];
  }

  /** The `Cookie` header to send, or undefined with no cookie. */
  header(): string | undefined {
    if (this.#values.size === 0) return undefined;
    return [...this.#values].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** Takes in the `Set-Cookie` headers of a response. */
  store(setCookie: string | readonly string[] | undefined): void {
    if (setCookie === undefined) return;
    for (const line of typeof setCookie === "string" ? [setCookie] : setCookie) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || isExpired(attributes)) this.#values.delete(name);
      else this.#values.set(name, value);
    }
  }
}

function isExpired(attributes: readonly string[]): boolean {
  for (const attribute of attributes) {
    const [key = "", value = ""] = attribute.split("=").map((part) => part.trim());
    if (key.toLowerCase() === "max-age" && Number(value) <= 0) return true;
    if (key.toLowerCase() === "expires" && Date.parse(value) <= Date.now()) return true;
  }
  return false;
}
