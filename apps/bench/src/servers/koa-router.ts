import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import Router from "@koa/router";
import Koa from "koa";
import { koaBody } from "koa-body";
import { createSession } from "koa-session";
import nunjucks from "nunjucks";
import pug from "pug";
import { generatedRoutes } from "../generate.js";
import { JSON_BODY, LOGIN_PATH, PAGE_DATA, SESSION_USER, TEXT_BODY, pairText, type Scenario } from "../workloads.js";
import { csrfMatches } from "./csrf-check.js";
import { SITE_ROOT, closeServer, listenOn, routeCount, type RunningServer } from "./types.js";

const SECRET = crypto.randomUUID();

/**
 * The baseline: Koa + @koa/router written by hand, doing what the frameworks do for each
 * workload: the same templates with the same engine options, koa-session cookie sessions, a JSON
 * body parser and a CSRF check against a secret kept in the session.
 */
export async function start(scenario: Scenario, port: number): Promise<RunningServer> {
  const app = new Koa({ keys: [SECRET] });
  const router = new Router();
  const timings: Record<string, number> = {};
  const routes = routeCount(scenario);
  if (scenario === "basic") basicRoutes(router);
  else if (scenario === "security") securityRoutes(app, router);
  else if (routes !== undefined) {
    const list = generatedRoutes(routes);
    const t0 = performance.now();
    for (const route of list) {
      const text = route.text;
      router.get(route.path, (ctx) => {
        ctx.type = "text/plain; charset=utf-8";
        ctx.body = text;
      });
    }
    timings["routeTable"] = performance.now() - t0;
  }
  const t1 = performance.now();
  app.use(router.routes());
  app.use(router.allowedMethods());
  timings["appBuild"] = (timings["routeTable"] ?? 0) + performance.now() - t1;
  const server = createServer(app.callback());
  const bound = await listenOn(server, port);
  return { port: bound, timings, close: () => closeServer(server) };
}

function basicRoutes(router: Router): void {
  const templates = fileURLToPath(new URL("templates/", SITE_ROOT));
  // fw-a's engine options: autoescape, trimBlocks, lstripBlocks, compiled once and cached.
  const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(templates, { noCache: false, watch: false }), {
    autoescape: true,
    throwOnUndefined: false,
    trimBlocks: true,
    lstripBlocks: true,
  });
  const page = env.getTemplate("main/Index/page.html", true);
  const pugPage = pug.compileFile(`${templates}main/Index/pugPage.pug`, {
    basedir: templates,
    doctype: "html",
    compileDebug: false,
  });

  router.get("/text", (ctx) => {
    ctx.type = "text/plain; charset=utf-8";
    ctx.body = TEXT_BODY;
  });
  router.get("/items/pair/:a/:b", (ctx) => {
    ctx.type = "text/plain; charset=utf-8";
    ctx.body = pairText(ctx.params["a"]!, ctx.params["b"]!);
  });
  router.get("/api/data", (ctx) => {
    ctx.type = "application/json; charset=utf-8";
    ctx.body = JSON.stringify(JSON_BODY);
  });
  router.get("/page", (ctx) => {
    ctx.type = "text/html; charset=utf-8";
    ctx.body = page.render({ ...PAGE_DATA });
  });
  router.get("/pug-page", (ctx) => {
    ctx.type = "text/html; charset=utf-8";
    ctx.body = pugPage({ ...PAGE_DATA });
  });
}

function securityRoutes(app: Koa, router: Router): void {
  app.use(createSession({ key: "session", maxAge: 86_400_000, httpOnly: true, sameSite: "lax", signed: true }, app));
  const session = (ctx: Koa.Context) => ctx.session as unknown as Record<string, unknown>;
  router.get(LOGIN_PATH, (ctx) => {
    const data = session(ctx);
    data["user"] = SESSION_USER;
    data["csrf"] ??= randomBytes(32).toString("base64url");
    ctx.type = "application/json; charset=utf-8";
    ctx.body = JSON.stringify({ token: data["csrf"] });
  });
  router.post("/account/submit", koaBody({ jsonLimit: "1mb" }), (ctx) => {
    const data = session(ctx);
    if (!csrfMatches(ctx.get("x-csrf-token"), data["csrf"])) ctx.throw(403, "CSRF token missing or wrong");
    const body = ctx.request.body as { title?: unknown; count?: unknown };
    ctx.type = "application/json; charset=utf-8";
    ctx.body = JSON.stringify({ ok: true, user: data["user"], title: body.title, count: body.count });
  });
  router.get("/account/whoami", (ctx) => {
    ctx.type = "application/json; charset=utf-8";
    ctx.body = JSON.stringify({ user: session(ctx)["user"] ?? null });
  });
}

/** Milliseconds to register the routes of an N-route app on a new @koa/router. */
export function measureTable(routes: number): number {
  const list = generatedRoutes(routes);
  const t0 = performance.now();
  const router = new Router();
  for (const route of list) router.get(route.path, (ctx) => void (ctx.body = route.text));
  router.routes();
  return performance.now() - t0;
}
