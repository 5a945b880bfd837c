import { createServer } from "node:http";
import { JSON_BODY, TEXT_BODY, pairText, type Scenario } from "../workloads.js";
import { closeServer, listenOn, unsupported, type RunningServer } from "./types.js";

const PAIR_PREFIX = "/items/pair/";
const TEXT_TYPE = "text/plain; charset=utf-8";

/**
 * The ceiling: node:http with a hand-written switch over the three simple workloads, doing the
 * same work as the frameworks (decode two path values, serialise the JSON per request).
 */
export async function start(scenario: Scenario, port: number): Promise<RunningServer> {
  if (scenario !== "basic") throw unsupported("raw-http", scenario);
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    if (path === "/text") {
      res.writeHead(200, { "content-type": TEXT_TYPE, "content-length": Buffer.byteLength(TEXT_BODY) });
      res.end(TEXT_BODY);
      return;
    }
    if (path === "/api/data") {
      const body = JSON.stringify(JSON_BODY);
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    if (path.startsWith(PAIR_PREFIX)) {
      const parts = path.slice(PAIR_PREFIX.length).split("/");
      if (parts.length === 2 && parts[0] && parts[1]) {
        try {
          const body = pairText(decodeURIComponent(parts[0]), decodeURIComponent(parts[1]));
          res.writeHead(200, { "content-type": TEXT_TYPE, "content-length": Buffer.byteLength(body) });
          res.end(body);
        } catch {
          res.writeHead(400, { "content-type": TEXT_TYPE });
          res.end("Bad URL");
        }
        return;
      }
    }
    res.writeHead(404, { "content-type": TEXT_TYPE });
    res.end("Not Found");
  });
  const bound = await listenOn(server, port);
  return { port: bound, timings: {}, close: () => closeServer(server) };
}
