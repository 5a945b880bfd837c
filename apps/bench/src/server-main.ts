// The process the runner starts for one server and scenario (pinned to one core):
//   node dist/server-main.js <server> <scenario> [port]      serve; prints "READY {json}" once listening
//   node dist/server-main.js --table <server> <routes>        print the route-table build time, exit
import { loadServer } from "./servers/registry.js";
import type { Scenario } from "./workloads.js";

const args = process.argv.slice(2);
if (args[0] === "--table") {
  const [, name = "", routes = "10"] = args;
  const server = await loadServer(name);
  if (!server.measureTable) throw new Error(`${name} has no route-count scenario.`);
  const ms = server.measureTable(Number(routes));
  process.stdout.write(`TABLE ${JSON.stringify({ ms })}\n`);
} else {
  const [name = "", scenario = "basic", port = "0"] = args;
  const server = await loadServer(name);
  const running = await server.start(scenario as Scenario, Number(port));
  process.stdout.write(`READY ${JSON.stringify({ port: running.port, timings: running.timings, pid: process.pid })}\n`);
  const stop = () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
