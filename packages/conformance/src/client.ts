import { request as httpRequest } from "node:http";

/** A response as the suite inspects it. */
export interface ClientResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The `content-type` header without parameters, lower-cased. */
  readonly type: string;
  /** The response body parsed as JSON (throws when it is not JSON). */
  json(): unknown;
}

/** Options of one request. */
export interface RequestOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * Sends one HTTP request to the server under test, redirects not followed, no keep-alive (so a
 * server closes promptly). A raw `path` is sent as written, so encoded characters reach the app.
 */
export function send(
  base: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ClientResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent: false,
        headers: {
          connection: "close",
          ...(options.body !== undefined ? { "content-length": String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const type = String(res.headers["content-type"] ?? "")
            .split(";")[0]!
            .trim()
            .toLowerCase();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            type,
            json: () => JSON.parse(text) as unknown,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The verbs of an `Allow` header, upper-cased, as a sorted list. */
export function allowOf(response: ClientResponse): string[] {
  const header = response.headers["allow"];
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  return [
    ...new Set(
      value
        .split(",")
        .map((v) => v.trim().toUpperCase())
        .filter(Boolean),
    ),
  ].sort();
}
