// The process the runner starts for one server and scenario (pinned to one core):
//   node dist/server-main.js <server> <scenario> [port]      serve; prints "READY {json}" once listening
//   node dist/server-main.js --table <server> <routes>        print the route-table build time, exit
// With BENCH_PROFILE=<file.cpuprofile> a serving process records a CPU profile from the moment it
// listens until it is stopped, so start-up (module loading, compilation) stays out of the
// per-request figures that `pnpm bench --profile` prints.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { E_BENCH_RUN } from "./errors.js";
import { loadServer } from "./servers/registry.js";
import type { Scenario } from "./workloads.js";

const args = process.argv.slice(2);
if (args[0] === "--table") {
  const [, name = "", routes = "10"] = args;
  const server = await loadServer(name);
  if (!server.measureTable) throw new E_BENCH_RUN(name, "it has no route-count scenario");
  const ms = server.measureTable(Number(routes));
  process.stdout.write(`TABLE ${JSON.stringify({ ms })}\n`);
} else {
  const [name = "", scenario = "basic", port = "0"] = args;
  const server = await loadServer(name);
  const running = await server.start(scenario as Scenario, Number(port));
  const profileFile = process.env["BENCH_PROFILE"];
  const profiler = profileFile ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.setSamplingInterval", { interval: 200 });
    await profiler.post("Profiler.start");
  }
  process.stdout.write(`READY ${JSON.stringify({ port: running.port, timings: running.timings, pid: process.pid })}\n`);
  const stop = async () => {
    if (profiler && profileFile) {
      const { profile } = await profiler.post("Profiler.stop");
      writeFileSync(profileFile, JSON.stringify(profile));
    }
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}
