// In-process cost of the db workload (`GET /account/profile`: the user from a session kept in Redis
// and one PostgreSQL row) in two checkouts of the repository in the same process, to tell whether a
// range of commits made it slower: each checkout's built bench servers (fw-a and fw-b, db scenario,
// production defaults) are loaded from its own apps/bench/dist, each app logs in once, and real
// IncomingMessage / ServerResponse objects go to the four apps' callbacks in blocks that alternate,
// the order reversing every block. Printed on stderr: CPU time per request per app and, per
// framework, the median over paired blocks of first / second checkout. Log lines go to stdout:
//   node dist/micro-db-trees.js <first checkout> <second checkout> [requests per block = 20] [blocks = 60] > /dev/null
// (build both checkouts first; `git worktree add` gives an older one). A loaded machine delays the
// blocks but adds little to their CPU time.
import { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { E_BENCH_OPTION, E_BENCH_RUN } from "./errors.js";
import type { Callback } from "./micro-harness.js";

interface App {
  readonly label: string;
  readonly callback: Callback;
  readonly cookie: string;
  readonly close: () => Promise<void>;
}

const socket = {
  encrypted: false,
  remoteAddress: "127.0.0.1",
  readableHighWaterMark: 16_384,
  on() {},
  once() {},
  removeListener() {},
} as unknown as Socket;

/** One GET through an app's callback with a cookie; resolves with the response. */
async function get(callback: Callback, url: string, cookie?: string): Promise<ServerResponse> {
  const req = new IncomingMessage(socket);
  req.url = url;
  req.method = "GET";
  req.headers = cookie ? { host: "127.0.0.1", cookie } : { host: "127.0.0.1" };
  req.push(null);
  const res = new ServerResponse(req);
  await callback(req, res);
  return res;
}

/** The session cookie a login answer sets (name=value pairs, attributes left out). */
function cookieOf(res: ServerResponse): string {
  const set = res.getHeader("set-cookie");
  const lines = Array.isArray(set) ? set : typeof set === "string" ? [set] : [];
  return lines.map((line) => line.split(";")[0]).join("; ");
}

/** Loads one checkout's fw-a or fw-b db server, logs in, and checks the profile route answers 200. */
async function load(root: string, framework: "fw-a" | "fw-b", label: string): Promise<App> {
  const dist = pathToFileURL(`${resolve(root)}/apps/bench/dist/servers/`).href;
  const { frameworkHost } = (await import(`${dist}framework.js`)) as typeof import("./servers/framework.js");
  const { spec } = (await import(`${dist}${framework}.js`)) as typeof import("./servers/fw-a.js");
  const host = await frameworkHost(spec, "db");
  const callback = host.callback() as unknown as Callback;
  const slash = framework === "fw-a" ? "/" : "";
  const login = await get(callback, `/account/login${slash}`);
  const cookie = cookieOf(login);
  if (login.statusCode !== 200 || !cookie) throw new E_BENCH_RUN(label, "the login gave no session cookie");
  const app = { label, callback, cookie, close: () => host.close() };
  const url = `/account/profile${slash}`;
  if ((await get(callback, url, cookie)).statusCode !== 200) throw new E_BENCH_RUN(label, `${url} did not answer 200`);
  return Object.assign(app, { url });
}

const [first, second] = process.argv.slice(2, 4);
if (!first || !second) throw new E_BENCH_OPTION("Give two repository roots: micro-db-trees.js <first> <second>.");
const block = Number(process.argv[4] ?? 20);
const blocks = Number(process.argv[5] ?? 60);
const apps: (App & { url: string })[] = [];
for (const framework of ["fw-a", "fw-b"] as const)
  for (const [root, tag] of [
    [first, "first"],
    [second, "second"],
  ] as const)
    apps.push((await load(root, framework, `${framework} ${tag}`)) as App & { url: string });

const startLoad = loadavg().map((x) => x.toFixed(2));
const skip = Math.min(10, Math.floor(blocks / 10));
const totals = new Map<string, number>(apps.map((app) => [app.label, 0]));
const ratios = new Map<string, number[]>([
  ["fw-a", []],
  ["fw-b", []],
]);
for (let i = 0; i < blocks; i++) {
  const cost = new Map<string, number>();
  for (const app of i % 2 ? [...apps].reverse() : apps) {
    const t0 = process.cpuUsage();
    for (let j = 0; j < block; j++)
      if ((await get(app.callback, app.url, app.cookie)).statusCode !== 200)
        throw new E_BENCH_RUN(app.label, `${app.url} did not answer 200`);
    const d = process.cpuUsage(t0);
    cost.set(app.label, d.user + d.system);
  }
  if (i < skip) continue; // warm-up blocks
  for (const app of apps) totals.set(app.label, totals.get(app.label)! + cost.get(app.label)!);
  for (const framework of ["fw-a", "fw-b"])
    ratios.get(framework)!.push(cost.get(`${framework} first`)! / cost.get(`${framework} second`)!);
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
const out = [
  `first: ${resolve(first)}, second: ${resolve(second)}`,
  `load average at the start: ${startLoad.join(" / ")}, at the end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ")}`,
  `GET /account/profile, CPU per request (${blocks - skip} blocks of ${block} requests each, alternating):`,
];
for (const app of apps)
  out.push(
    `${app.label.padEnd(12)} ${(totals.get(app.label)! / ((blocks - skip) * block)).toFixed(1).padStart(7)} us/req`,
  );
for (const [framework, xs] of ratios)
  out.push(`${framework} first / second, median of paired blocks: ${(median(xs) * 100).toFixed(1)}%`);
for (const line of out) process.stderr.write(`${line}\n`);
for (const app of apps) await app.close();
process.exit(0);
