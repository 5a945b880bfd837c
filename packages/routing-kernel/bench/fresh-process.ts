// Benchmark: the route table of N generated routes built once in a fresh Node process, so the JIT's
// cold start counts, as at an app's start-up and as apps/bench's "route table" measures it (1,000
// classes of 10 methods `m0()..m9()`, made at run time as real classes extending a base class).
// Not a timed test: node --conditions=source --import tsx bench/fresh-process.ts [routes] [processes]
// (`pnpm bench:cold` in this package). Each process is pinned to one core when taskset exists.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = "--child";

if (process.argv[2] === CHILD) {
  const { buildRouteTable, defineConventions } = await import("../src/index.js");
  class View {}
  const routes = Number(process.argv[3] ?? 10_000);
  const lines: string[] = [];
  for (let c = 0; c * 10 < routes; c++) {
    const name = `R${String(c).padStart(5, "0")}`;
    const methods = Array.from(
      { length: Math.min(10, routes - c * 10) },
      (_, m) => `  m${m}() { return ${JSON.stringify(`${name}.m${m}`)}; }`,
    );
    lines.push(`exports.${name} = class ${name} extends Base {\n${methods.join("\n")}\n};`);
  }
  const exports: Record<string, unknown> = {};
  // The source is made here from fixed names only.
  new Function("Base", "exports", lines.join("\n"))(View, exports);
  const conventions = defineConventions({ baseClass: View, trailingSlash: true });
  const cpu = process.cpuUsage();
  const start = performance.now();
  const table = buildRouteTable({ conventions, modules: [{ name: "generated", exports }] });
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  process.stdout.write(
    `${JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, routes: table.routes.length })}\n`,
  );
} else {
  const routes = Number(process.argv[2] ?? 10_000);
  const processes = Number(process.argv[3] ?? 7);
  const pin = spawnSync("taskset", ["-c", "0", "true"]).status === 0;
  const args = [...process.execArgv, fileURLToPath(import.meta.url), CHILD, String(routes)];
  const results: Array<{ ms: number; cpuMs: number; routes: number }> = [];
  for (let i = 0; i < processes; i++) {
    const run = pin
      ? spawnSync("taskset", ["-c", "1", process.execPath, ...args], { encoding: "utf8" })
      : spawnSync(process.execPath, args, { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
    results.push(JSON.parse(run.stdout.trim().split("\n").pop()!) as { ms: number; cpuMs: number; routes: number });
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const wall = results.map((r) => r.ms);
  console.log(
    `routing-kernel table in a fresh process: ${results[0]!.routes} routes, ${processes} processes${pin ? " (pinned to core 1)" : ""}, node ${process.version}`,
  );
  console.log(
    `  wall: median ${median(wall).toFixed(1)} ms (min ${Math.min(...wall).toFixed(1)}, max ${Math.max(...wall).toFixed(1)})`,
  );
  console.log(
    `  CPU (all threads, GC and compiler included): median ${median(results.map((r) => r.cpuMs)).toFixed(1)} ms`,
  );
}
