import { createHmac, timingSafeEqual } from "node:crypto";
import { E_STORAGE_SIGNATURE_INVALID } from "../errors.js";

/** What a signed link carries besides the key. */
export interface SignedQuery {
  /** Unix time (seconds) after which the link is refused. */
  readonly expires: number;
  readonly signature: string;
}

/**
 * Signs and checks time-limited links to private files on local disk, with an HMAC of the key and
 * the expiry under the app's secret key (object storage signs its own links).
 */
export class UrlSigner {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  #mac(key: string, expires: number): string {
    return createHmac("sha256", this.#secret).update(`storage\n${key}\n${expires}`).digest("base64url");
  }

  /** The query of a link to `key` valid for `seconds`. */
  sign(key: string, seconds: number, now = Date.now()): SignedQuery {
    const expires = Math.floor(now / 1000) + Math.ceil(seconds);
    return { expires, signature: this.#mac(key, expires) };
  }

  /** Throws `E_STORAGE_SIGNATURE_INVALID` (403) unless the query signs `key` and has not expired. */
  verify(key: string, expires: string | undefined, signature: string | undefined, now = Date.now()): void {
    if (!expires || !signature) throw new E_STORAGE_SIGNATURE_INVALID("the file is private and the link is not signed");
    if (!/^\d{1,12}$/.test(expires)) throw new E_STORAGE_SIGNATURE_INVALID("its expiry is malformed");
    const expected = Buffer.from(this.#mac(key, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new E_STORAGE_SIGNATURE_INVALID("its signature does not match");
    }
    if (Number(expires) * 1000 < now) throw new E_STORAGE_SIGNATURE_INVALID("it has expired");
  }
}
