import { createServer } from "node:http";
import { IgnitorFactory } from "@adonisjs/core/factories";
import { defineConfig as defineSessionConfig, stores } from "@adonisjs/session";
import { defineConfig as defineShieldConfig } from "@adonisjs/shield";
import { JSON_BODY, TEXT_BODY, pairText, type Scenario } from "../workloads.js";
import { closeServer, listenOn, unsupported, type RunningServer } from "./types.js";

const SECRET = crypto.randomUUID();

/**
 * AdonisJS 6, booted from npm packages alone (no starter kit): the Ignitor with the core config and
 * providers, as AdonisJS's own package tests boot it. Basic scenario: the router, no middleware.
 * Production scenario: what its web starter kit turns on (@adonisjs/session on a cookie store,
 * @adonisjs/shield with CSRF, X-Frame-Options, HSTS, nosniff), plus a same-origin CSP so that it sends
 * the headers helmet sends for the others, and one log line per request from AdonisJS's pino logger.
 */
export async function start(scenario: Scenario, port: number): Promise<RunningServer> {
  if (scenario !== "basic" && scenario !== "production") throw unsupported("adonis", scenario);
  const production = scenario === "production";
  const t0 = performance.now();
  const ignitor = new IgnitorFactory()
    .withCoreConfig()
    .withCoreProviders()
    .merge({
      rcFileContents: production
        ? {
            providers: [
              () => import("@adonisjs/session/session_provider"),
              () => import("@adonisjs/shield/shield_provider"),
            ],
          }
        : {},
      config: {
        app: { appKey: SECRET, http: {} },
        logger: { default: "app", loggers: { app: { enabled: production, name: "app", level: "info" } } },
        ...(production
          ? {
              session: defineSessionConfig({
                enabled: true,
                cookieName: "session",
                clearWithBrowser: false,
                age: "1d",
                cookie: { httpOnly: true, sameSite: "lax", secure: false },
                store: "cookie",
                stores: { cookie: stores.cookie() },
              }),
              shield: defineShieldConfig({
                csp: { enabled: true, directives: { defaultSrc: ["'self'"] }, reportOnly: false },
                csrf: {
                  enabled: true,
                  exceptRoutes: [],
                  enableXsrfCookie: true,
                  methods: ["POST", "PUT", "PATCH", "DELETE"],
                },
                xFrame: { enabled: true, action: "DENY" },
                hsts: { enabled: true, maxAge: "180 days" },
                contentTypeSniffing: { enabled: true },
              }),
            }
          : {}),
      },
    })
    .create(new URL("../../", import.meta.url), { importer: (file) => import(file) });
  const app = ignitor.createApp("web");
  await app.init();
  await app.boot();
  const server = await app.container.make("server");
  const router = await app.container.make("router");
  if (production) {
    server.use([
      async () => ({
        default: class RequestLog {
          async handle(
            ctx: {
              request: { method(): string; url(): string };
              response: { getStatus(): number };
              logger: { info(o: object, m: string): void };
            },
            next: () => Promise<void>,
          ) {
            const startAt = performance.now();
            try {
              await next();
            } finally {
              const ms = Math.round((performance.now() - startAt) * 10) / 10;
              const method = ctx.request.method();
              const path = ctx.request.url();
              const status = ctx.response.getStatus();
              ctx.logger.info({ method, path, status, ms }, `${method} ${path} ${status}`);
            }
          }
        },
      }),
    ]);
    router.use([
      () => import("@adonisjs/session/session_middleware"),
      () => import("@adonisjs/shield/shield_middleware"),
    ]);
  }
  router.get("/text", ({ response }) => {
    response.header("content-type", "text/plain; charset=utf-8");
    return TEXT_BODY;
  });
  if (!production) {
    router.get("/items/pair/:a/:b", ({ params, response }) => {
      response.header("content-type", "text/plain; charset=utf-8");
      return pairText(String(params["a"]), String(params["b"]));
    });
    router.get("/api/data", ({ response }) => {
      response.header("content-type", "application/json; charset=utf-8");
      return JSON.stringify(JSON_BODY);
    });
  } else {
    router.post("/account/submit", () => ({ ok: true }));
  }
  await server.boot();
  const appBuild = performance.now() - t0;
  const http = createServer(server.handle.bind(server));
  server.setNodeServer(http);
  const bound = await listenOn(http, port);
  return {
    port: bound,
    timings: { appBuild },
    close: async () => {
      await closeServer(http);
      await app.terminate();
    },
  };
}
