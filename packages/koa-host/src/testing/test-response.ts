import type { Response } from "light-my-request";
import { E_TEST_RESPONSE_FORMAT } from "../errors.js";
import { parseXml, type XmlElement } from "./xml.js";

/** An answer the test client received: status, headers and readers for its body. */
export class TestResponse {
  /** The HTTP status (200, 303, 422...). */
  readonly status: number;
  /** Response headers, names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  /** The raw body. */
  readonly body: Buffer;

  constructor(response: Response) {
    this.status = response.statusCode;
    this.headers = response.headers;
    this.body = response.rawPayload;
  }

  /** One header as text (several values joined by `, `), or undefined. */
  header(name: string): string | undefined {
    const value = this.headers[name.toLowerCase()];
    return value === undefined ? undefined : Array.isArray(value) ? value.join(", ") : String(value);
  }

  /** The `Location` of a redirect or a 201, or undefined. */
  get location(): string | undefined {
    return this.header("location");
  }

  /** The media type without parameters (`application/json`), or "" without a body type. */
  get type(): string {
    return (this.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  }

  /** The body as UTF-8 text. */
  text(): string {
    return this.body.toString("utf8");
  }

  /** The body parsed as JSON; throws `E_TEST_RESPONSE_FORMAT` (with the status and the start of the body) when it is not JSON. */
  json<T = unknown>(): T {
    try {
      return JSON.parse(this.text()) as T;
    } catch {
      throw new E_TEST_RESPONSE_FORMAT("JSON", this.status, this.type || "no content type", this.text().slice(0, 200));
    }
  }

  /** The body parsed as XML (its root element); throws `E_TEST_RESPONSE_FORMAT` when it is not well-formed XML. */
  xml(): XmlElement {
    try {
      return parseXml(this.text());
    } catch (error) {
      throw new E_TEST_RESPONSE_FORMAT(
        "XML",
        this.status,
        this.type || "no content type",
        `${(error as Error).message}; body: ${this.text().slice(0, 200)}`,
      );
    }
  }
}
