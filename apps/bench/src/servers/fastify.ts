import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyHelmet from "@fastify/helmet";
import fastifySession from "@fastify/session";
import Fastify, { LogController, type FastifyInstance } from "fastify";
import { JSON_BODY, LOGIN_PATH, SESSION_USER, TEXT_BODY, pairText, type Scenario } from "../workloads.js";
import { UNSAFE_METHODS } from "./csrf-check.js";
import { DB_ROW, DB_TABLE, prepareDb } from "./db-fixture.js";
import type { FastifyRedisStore } from "./fastify-redis-store.js";
import { unsupported, type RunningServer } from "./types.js";

const SECRET = crypto.randomUUID();

/**
 * Fastify 5, the peer users would pick instead. The basic scenario is bare Fastify (its own router,
 * no plugins, no logger); the production scenario is Fastify with the plugins that give it what a
 * scaffolded fw-a/fw-b app has on in production: @fastify/helmet (defaults), @fastify/cookie +
 * @fastify/session (signed cookie id, nothing saved for an untouched session),
 * @fastify/csrf-protection on unsafe methods, and one pino line per request at level info. The db
 * scenario adds sessions in Redis and one PostgreSQL row read per request.
 */
export async function start(scenario: Scenario, port: number): Promise<RunningServer> {
  let app: FastifyInstance;
  if (scenario === "basic") {
    app = Fastify({ logger: false });
    basicRoutes(app);
  } else if (scenario === "production") {
    app = await productionApp();
  } else if (scenario === "db") {
    app = await dbApp();
  } else throw unsupported("fastify", scenario);
  const t0 = performance.now();
  await app.ready();
  const appBuild = performance.now() - t0;
  await app.listen({ port, host: "127.0.0.1" });
  const address = app.server.address();
  return {
    port: typeof address === "object" && address ? address.port : port,
    timings: { appBuild },
    close: () => app.close(),
  };
}

function basicRoutes(app: FastifyInstance): void {
  app.get("/text", (_req, reply) => {
    reply.type("text/plain; charset=utf-8").send(TEXT_BODY);
  });
  app.get<{ Params: { a: string; b: string } }>("/items/pair/:a/:b", (req, reply) => {
    reply.type("text/plain; charset=utf-8").send(pairText(req.params.a, req.params.b));
  });
  app.get("/api/data", (_req, reply) => {
    reply.type("application/json; charset=utf-8").send(JSON.stringify(JSON_BODY));
  });
}

async function productionApp(store?: FastifyRedisStore): Promise<FastifyInstance> {
  // Fastify's own request logging writes two lines per request; the scaffold writes one, so it is
  // off and one line is written when the response is sent (same fields as koa-host's logger).
  const app = Fastify({ logger: { level: "info" }, logController: new LogController({ disableRequestLogging: true }) });
  app.addHook("onResponse", (req, reply, done) => {
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    req.log.info(
      { method: req.method, path: req.url, status: reply.statusCode, ms },
      `${req.method} ${req.url} ${reply.statusCode}`,
    );
    done();
  });
  await app.register(fastifyHelmet);
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: SECRET,
    cookieName: "session",
    saveUninitialized: false,
    ...(store ? { store } : {}),
    cookie: { secure: false, httpOnly: true, sameSite: "lax", maxAge: 86_400_000 },
  });
  await app.register(fastifyCsrf, { sessionPlugin: "@fastify/session" });
  app.addHook("onRequest", (req, reply, done) => {
    if (UNSAFE_METHODS.has(req.method)) app.csrfProtection(req, reply, done);
    else done();
  });
  app.get("/text", (_req, reply) => {
    reply.type("text/plain; charset=utf-8").send(TEXT_BODY);
  });
  return app;
}

/** The production app with sessions in Redis and knex on PostgreSQL (the drivers fw-a/fw-b use). */
async function dbApp(): Promise<FastifyInstance> {
  const targets = await prepareDb();
  // ioredis and knex are loaded for this scenario only (the others' start-up and RSS are measured).
  const [{ default: knex }, { FastifyRedisStore }] = await Promise.all([
    import("knex"),
    import("./fastify-redis-store.js"),
  ]);
  const store = new FastifyRedisStore(targets.redisUrl, "bench-fastify-sess:", 86_400_000);
  const db = knex({ client: "pg", connection: targets.dbUrl });
  const app = await productionApp(store);
  app.addHook("onClose", async () => {
    await db.destroy();
    await store.close();
  });
  app.get(LOGIN_PATH, async (req, reply) => {
    req.session.set("user", SESSION_USER);
    const token = reply.generateCsrf();
    reply.type("application/json; charset=utf-8");
    return JSON.stringify({ token });
  });
  app.get("/account/profile", async (req, reply) => {
    const item = await db(DB_TABLE).select("id", "name", "price").where({ id: DB_ROW.id }).first();
    reply.type("application/json; charset=utf-8");
    return JSON.stringify({ user: req.session.get("user") ?? null, item: item ?? null });
  });
  return app;
}
