import { request } from "node:http";

/** What {@link rawGet} answers. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * A GET whose path is sent exactly as written: `fetch` resolves `..` and `.` segments before
 * sending, so traversal probes (`/static/../x`) need this to reach the server as an attacker sends them.
 */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject).end();
  });
}
