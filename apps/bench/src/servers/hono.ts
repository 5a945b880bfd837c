import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { JSON_BODY, TEXT_BODY, pairText, type Scenario } from "../workloads.js";
import { unsupported, type RunningServer } from "./types.js";

/**
 * Hono 4 on @hono/node-server (its default router, no middleware): the basic workloads, answered
 * with the same bodies and content types as the other servers.
 */
export async function start(scenario: Scenario, port: number): Promise<RunningServer> {
  if (scenario !== "basic") throw unsupported("hono", scenario);
  const app = new Hono();
  app.get("/text", (c) => c.body(TEXT_BODY, 200, { "content-type": "text/plain; charset=utf-8" }));
  app.get("/items/pair/:a/:b", (c) =>
    c.body(pairText(c.req.param("a"), c.req.param("b")), 200, { "content-type": "text/plain; charset=utf-8" }),
  );
  app.get("/api/data", (c) =>
    c.body(JSON.stringify(JSON_BODY), 200, { "content-type": "application/json; charset=utf-8" }),
  );
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => resolve(s));
    s.once("error", reject);
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : port,
    timings: {},
    close: () =>
      new Promise<void>((resolve) => {
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
