/**
 * securityHeadersMiddleware records helmet's headers once at start-up and sets that list per
 * request: the headers must be exactly the ones koa-helmet sets itself, and options
 * helmet computes per request (a CSP nonce function) must still be computed per request.
 */
import assert from "node:assert/strict";
import { createServer, get, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, test } from "node:test";
import Koa, { type Middleware } from "koa";
import helmet from "koa-helmet";
import { securityHeadersMiddleware } from "../src/index.js";

const servers: Array<ReturnType<typeof createServer>> = [];
after(() => {
  for (const server of servers) server.close();
});

/** Serves `GET /` through one middleware and returns the headers of an answer (lower-case names, no date). */
async function headersOf(middleware: Middleware): Promise<Record<string, string>> {
  const app = new Koa();
  app.use(middleware);
  app.use((ctx) => {
    ctx.body = "ok";
  });
  const server = createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await response.text();
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "date") out[name] = value;
  });
  return out;
}

describe("security headers prepared at start-up", () => {
  test("production and development send exactly koa-helmet's headers (HSTS only in production)", async () => {
    const production = await headersOf(securityHeadersMiddleware({}, true));
    assert.deepEqual(production, await headersOf(helmet()));
    assert.match(production["strict-transport-security"] ?? "", /max-age=/);
    assert.equal(production["x-content-type-options"], "nosniff");
    const development = await headersOf(securityHeadersMiddleware({}, false));
    assert.deepEqual(
      development,
      await headersOf(
        helmet({
          strictTransportSecurity: false,
          contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
        }),
      ),
    );
    assert.equal(development["strict-transport-security"], undefined);
  });

  test("an app's options are applied (a header switched off, another changed)", async () => {
    const headers = await headersOf(
      securityHeadersMiddleware({ xFrameOptions: false, referrerPolicy: { policy: "same-origin" } }, true),
    );
    assert.equal(headers["x-frame-options"], undefined);
    assert.equal(headers["referrer-policy"], "same-origin");
  });

  test("a CSP directive given as a function is still computed per request", async () => {
    let calls = 0;
    const nonce = (_req: IncomingMessage, _res: ServerResponse) => `'nonce-n${++calls}'`;
    const middleware = securityHeadersMiddleware(
      { contentSecurityPolicy: { directives: { scriptSrc: ["'self'", nonce] } } },
      true,
    );
    const first = await headersOf(middleware);
    const second = await headersOf(middleware);
    assert.match(first["content-security-policy"] ?? "", /'nonce-n\d+'/);
    assert.notEqual(first["content-security-policy"], second["content-security-policy"]);
  });

  test("the names go out in lower case, and a view replaces or removes one under any casing", async () => {
    const app = new Koa();
    app.use(securityHeadersMiddleware({}, true));
    app.use((ctx) => {
      ctx.set("X-Frame-Options", "DENY");
      ctx.remove("Cross-Origin-Opener-Policy");
      ctx.body = "ok";
    });
    const server = createServer(app.callback());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const raw = await new Promise<string[]>((resolve, reject) => {
      get({ host: "127.0.0.1", port, path: "/" }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.rawHeaders));
      }).on("error", reject);
    });
    const names = raw.filter((_, i) => i % 2 === 0);
    assert.ok(names.includes("content-security-policy"), names.join(", "));
    assert.ok(names.includes("strict-transport-security"), names.join(", "));
    // Replaced, not sent twice; the view's own casing is kept for the header it set.
    assert.deepEqual(
      names.filter((name) => name.toLowerCase() === "x-frame-options"),
      ["X-Frame-Options"],
    );
    assert.equal(raw[raw.indexOf("X-Frame-Options") + 1], "DENY");
    assert.ok(!names.some((name) => name.toLowerCase() === "cross-origin-opener-policy"), names.join(", "));
  });

  test("an option that makes a header Node could not send stops the start, naming the header", () => {
    const options = { contentSecurityPolicy: { directives: { "script-src": ["'self'", "cdn.example\nx"] } } };
    assert.throws(
      () => securityHeadersMiddleware(options, true),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_SECURITY_CONFIG_INVALID");
        assert.match(error.message, /securityHeaders.*content-security-policy.*remove the line break/);
        return true;
      },
    );
  });
});
