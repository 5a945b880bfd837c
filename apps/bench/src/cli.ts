// `pnpm bench [--quick] [...]`: runs the benchmarks, prints the tables, writes results/*.json and
// (full runs) docs/benchmarks.md. The runner process should be pinned to core 1 (bin/bench.mjs
// does it); servers are pinned to core 0.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { resultsBlock, updateDoc } from "./doc.js";
import { machineInfo } from "./machine.js";
import { parseOptions, plannedLoadSeconds } from "./plan.js";
import { hasWrk } from "./load.js";
import { canPin } from "./processes.js";
import { markdownTables, summarise } from "./report.js";
import { runBench } from "./runner.js";

const options = parseOptions(process.argv.slice(2), hasWrk());
if (options.from) {
  // Re-report a results file (after a change to the report), without running anything.
  const saved = JSON.parse(readFileSync(options.from, "utf8")) as {
    started: string;
    seconds: number;
    options: typeof options;
    machine: ReturnType<typeof machineInfo>;
    raw: Parameters<typeof summarise>[0];
  };
  const summary = summarise(saved.raw);
  console.log(markdownTables(summary));
  if (options.writeDoc) {
    const doc = fileURLToPath(new URL("../../../docs/benchmarks.md", import.meta.url));
    updateDoc(doc, resultsBlock(summary, saved.machine, saved.options, new Date(saved.started), saved.seconds));
    console.log(`Tables written to ${doc}`);
  }
  writeFileSync(options.from, `${JSON.stringify({ ...saved, summary }, null, 2)}\n`);
  process.exit(0);
}
if (!canPin()) {
  console.error("taskset is missing: servers cannot be pinned to one core (install util-linux). Stopping.");
  process.exit(1);
}
if (options.priority && getPriority() > -10)
  console.error(`--priority: running at nice ${getPriority()} (not -10); start through bin/bench.mjs as root.`);
const started = new Date();
const t0 = performance.now();
console.log(
  `bench: ${options.quick ? "quick" : "full"} run, ${options.rounds} round(s), ${options.warmup}+${options.duration} s per run (${options.loader}, ${options.connections} connections), servers ${options.servers.join(", ")}, scenarios ${options.scenarios.join(", ")}; ${Math.round(plannedLoadSeconds(options))} s of load planned, plus start-ups`,
);
const raw = await runBench(options, (line) => console.log(line));
const seconds = (performance.now() - t0) / 1000;
const summary = summarise(raw);
const machine = machineInfo();
const tables = markdownTables(summary);
console.log(`\n${tables}\n`);
if (raw.failures.length > 0) {
  console.log("Failures:");
  for (const f of raw.failures) console.log(`  ${f.server} ${f.scenario}: ${f.error}`);
}

const resultsDir = fileURLToPath(new URL("../results/", import.meta.url));
mkdirSync(resultsDir, { recursive: true });
// A filtered or profiled run leaves the full run's latest.json alone.
const file = `${resultsDir}${options.quick ? "quick" : options.filtered || options.profile ? "partial" : "latest"}.json`;
writeFileSync(
  file,
  `${JSON.stringify({ started: started.toISOString(), seconds, options, machine, summary, raw }, null, 2)}\n`,
);
console.log(`Results: ${file}`);
if (options.writeDoc) {
  const doc = fileURLToPath(new URL("../../../docs/benchmarks.md", import.meta.url));
  updateDoc(doc, resultsBlock(summary, machine, options, started, seconds));
  console.log(`Tables written to ${doc}`);
}
console.log(`Done in ${Math.round(seconds)} s.`);
process.exitCode = raw.runs.length === 0 ? 1 : 0;
