// In-process cost of the production-defaults workload: `GET /text` without a cookie on
// bare Koa with koa-helmet, koa-session, a CSRF check and a pino line, and on fw-a and fw-b as a
// scaffolded app runs in production (security battery on, request log). Real IncomingMessage /
// ServerResponse objects go to each app's callback in blocks that alternate between the apps; CPU
// time per request, and bare Koa / app per pair of blocks. The log lines go to stdout: run it as
//   node dist/micro-production.js [requests per block = 300] [blocks = 200] > /dev/null
// (the figures are printed on stderr). One process for all three: whatever one app turns on for the
// whole process (async hooks) slows the others too, so the ratios are the ones to read.
import { spec as specA } from "./servers/fw-a.js";
import { spec as specB } from "./servers/fw-b.js";
import { frameworkHost } from "./servers/framework.js";
import { productionKoa } from "./servers/koa-production.js";
import { runPaired, type Callback } from "./micro-harness.js";

const a = await frameworkHost(specA, "production");
const b = await frameworkHost(specB, "production");
const asCallback = (fn: unknown) => fn as Callback;
const lines = await runPaired(
  {
    "bare Koa production": {
      callback: asCallback(productionKoa().callback()),
      url: "/text",
      reference: "bare Koa production",
    },
    "fw-a production": { callback: asCallback(a.callback()), url: "/text/", reference: "bare Koa production" },
    "fw-b production": { callback: asCallback(b.callback()), url: "/text", reference: "bare Koa production" },
  },
  Number(process.argv[2] ?? 300),
  Number(process.argv[3] ?? 200),
);
for (const line of lines) process.stderr.write(`${line}\n`);
await a.close();
await b.close();
process.exit(0);
