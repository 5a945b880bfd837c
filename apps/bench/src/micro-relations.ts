// In-process cost of the list with relations: `GET /account/tasks` (100 tasks with their project
// and assignees through the models' preloads) against `GET /account/joined` (the same list by hand
// with knex joins) on fw-a and fw-b in the db scenario (the production defaults, the data battery on
// the machine's PostgreSQL). Real IncomingMessage / ServerResponse objects go to each app's callback
// in blocks that alternate between the four; CPU time per request (the pg driver's work included,
// it runs in this process), and by hand / preload per pair of blocks. The log lines go to stdout:
//   node dist/micro-relations.js [requests per block = 20] [blocks = 60] > /dev/null
// (the figures are printed on stderr). A loaded machine delays the blocks but adds little to
// their CPU time, so this is the figure to read when `uptime` is high.
import { loadavg } from "node:os";
import { runPaired, type Callback } from "./micro-harness.js";
import { frameworkHost } from "./servers/framework.js";
import { spec as specA } from "./servers/fw-a.js";
import { spec as specB } from "./servers/fw-b.js";

const a = await frameworkHost(specA, "db");
const b = await frameworkHost(specB, "db");
const asCallback = (fn: unknown) => fn as Callback;
const [aCall, bCall] = [asCallback(a.callback()), asCallback(b.callback())];
const load = loadavg().map((x) => x.toFixed(2));
const lines = await runPaired(
  {
    "fw-a by hand (knex)": { callback: aCall, url: "/account/joined/", reference: "fw-a by hand (knex)" },
    "fw-a preload": { callback: aCall, url: "/account/tasks/", reference: "fw-a by hand (knex)" },
    "fw-b by hand (knex)": { callback: bCall, url: "/account/joined", reference: "fw-b by hand (knex)" },
    "fw-b preload": { callback: bCall, url: "/account/tasks", reference: "fw-b by hand (knex)" },
  },
  Number(process.argv[2] ?? 20),
  Number(process.argv[3] ?? 60),
);
process.stderr.write(
  `load average at the start: ${load.join(" / ")}, at the end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ")}\n`,
);
for (const line of lines) process.stderr.write(`${line}\n`);
await a.close();
await b.close();
process.exit(0);
