// Test helpers: a Koa app on a free port of 127.0.0.1, with the error mapping a host gives.
import type { AddressInfo } from "node:net";
import Koa from "koa";
import type { Middleware } from "koa";

/** A running Koa app. */
export interface TestApp {
  readonly base: string;
  close(): Promise<void>;
}

/**
 * Serves the middleware on 127.0.0.1 with a minimal host error handler: coded errors answer
 * with their status and `{ code, message }`, anything else is a 500 (which tests treat as a bug).
 */
export async function serve(...middleware: Middleware[]): Promise<TestApp> {
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const e = error as { status?: number; code?: string; message?: string };
      ctx.status = typeof e.status === "number" && e.status >= 400 ? e.status : 500;
      ctx.body = { code: e.code ?? "INTERNAL", message: e.message };
    }
  });
  for (const m of middleware) app.use(m);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a request with a raw path (no client-side normalisation of `..` or `%2e`). */
export async function rawGet(
  base: string,
  rawPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Headers }> {
  const { request } = await import("node:http");
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: rawPath, method: "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: h });
      });
    });
    req.on("error", reject);
    req.end();
  });
}
