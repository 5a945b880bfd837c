import assert from "node:assert/strict";
import { once } from "node:events";
import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import Koa from "koa";
import { publicUrl, requireBaseUrl, resolveBaseUrl } from "../src/public-url.js";

async function linkFor(
  options: { baseUrl: string | undefined; env: string; basePath?: string },
  headers: Record<string, string>,
): Promise<{ link: string; port: number }> {
  const app = new Koa({ proxy: true });
  app.use((ctx) => {
    ctx.body = publicUrl(ctx, options, "/reset-password/token");
  });
  const server: Server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  try {
    const link = await new Promise<string>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/", headers }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk));
        res.on("end", () => resolve(body));
      });
      req.on("error", reject);
      req.end();
    });
    return { link, port };
  } finally {
    server.close();
  }
}

describe("public URLs for mailed links", () => {
  test("baseUrl is checked and trimmed", () => {
    assert.equal(resolveBaseUrl({ baseUrl: "https://shop.example.com/" }), "https://shop.example.com");
    assert.equal(resolveBaseUrl({ baseUrl: "https://example.com/shop/" }), "https://example.com/shop");
    assert.equal(resolveBaseUrl({}), undefined);
    for (const bad of [
      "shop.example.com",
      "ftp://example.com",
      "https://u:p@example.com",
      "https://example.com/?a=1",
      "https://example.com/#x",
      "javascript:alert(1)",
    ]) {
      assert.throws(() => resolveBaseUrl({ baseUrl: bad }), { code: "E_BASE_URL_INVALID" }, bad);
    }
  });

  test("production without baseUrl is E_BASE_URL_REQUIRED naming BASE_URL; elsewhere it may be unset", () => {
    assert.throws(
      () => requireBaseUrl({ env: "production" }, "contrib.auth"),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_BASE_URL_REQUIRED");
        assert.match(error.message, /BASE_URL/);
        assert.match(error.message, /contrib\.auth/);
        return true;
      },
    );
    assert.equal(
      requireBaseUrl({ env: "production", baseUrl: "https://shop.example.com" }, "contrib.auth"),
      "https://shop.example.com",
    );
    assert.equal(requireBaseUrl({ env: "development" }, "contrib.auth"), undefined);
  });

  test("a Host or X-Forwarded-Host of evil.example never reaches the link", async () => {
    const evil = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    const configured = await linkFor({ baseUrl: "https://shop.example.com", env: "production" }, evil);
    assert.equal(configured.link, "https://shop.example.com/reset-password/token");
    const development = await linkFor({ baseUrl: undefined, env: "development", basePath: "/shop" }, evil);
    assert.equal(
      development.link,
      `http://127.0.0.1:${development.port}/shop/reset-password/token`,
      "the server's own address",
    );
  });
});
