import Koa from "koa";
import { JSON_BODY, TEXT_BODY, pairText, type Scenario } from "../workloads.js";
import { closeServer, listenOn, unsupported, type RunningServer } from "./types.js";

// As a bare Koa script loads it (Koa's own `app.listen` requires it): an ES import of node:http
// would load Node's bundled undici with the module's ES facade, which the frameworks do not load.
const { createServer } = process.getBuiltinModule("node:http");

const PAIR_PREFIX = "/items/pair/";

/**
 * Bare Koa, no router: one middleware that tests the path by hand (the reference of the goals);
 * the production scenario adds the koa middleware of a scaffold's production defaults (imported
 * only then, so the start of the bare script loads no helmet, session or logger).
 */
export async function start(scenario: Scenario, port: number): Promise<RunningServer> {
  if (scenario === "production") return (await import("./koa-production.js")).startProduction(port);
  if (scenario !== "basic") throw unsupported("bare-koa", scenario);
  const app = new Koa();
  app.use((ctx) => {
    const path = ctx.path;
    if (path === "/text") {
      ctx.type = "text/plain; charset=utf-8";
      ctx.body = TEXT_BODY;
    } else if (path === "/api/data") {
      ctx.type = "application/json; charset=utf-8";
      ctx.body = JSON.stringify(JSON_BODY);
    } else if (path.startsWith(PAIR_PREFIX)) {
      const parts = path.slice(PAIR_PREFIX.length).split("/");
      if (parts.length !== 2 || !parts[0] || !parts[1]) return;
      ctx.type = "text/plain; charset=utf-8";
      try {
        ctx.body = pairText(decodeURIComponent(parts[0]), decodeURIComponent(parts[1]));
      } catch {
        ctx.throw(400, "Bad URL");
      }
    }
  });
  const server = createServer(app.callback());
  const bound = await listenOn(server, port);
  return { port: bound, timings: {}, close: () => closeServer(server) };
}
