import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { MachineInfo } from "./machine.js";
import type { BenchOptions } from "./plan.js";
import { markdownTables, type Summary } from "./report.js";

/** Markers around the generated part of docs/benchmarks.md; everything else there is written by hand. */
export const DOC_START = "<!-- bench:results:start (written by `pnpm bench`; edit outside these markers) -->";
export const DOC_END = "<!-- bench:results:end -->";

/** The generated block: when, where, how, and the tables. */
export function resultsBlock(
  summary: Summary,
  machine: MachineInfo,
  options: BenchOptions,
  started: Date,
  seconds: number,
): string {
  const versions = Object.entries(machine.packages)
    .map(([name, version]) => `${name} ${version}`)
    .join(", ");
  return [
    DOC_START,
    "",
    `Run of ${started.toISOString().slice(0, 16).replace("T", " ")} UTC (${options.quick ? "quick" : "full"}: ${options.rounds} load round(s) interleaved after ${options.warmup} s of warm-up, ${options.duration} s measured per run, ${options.startupRounds} round(s) of start-up timings, ${options.connections} connections, load from ${options.loader}${options.priority ? ", servers and load at nice -10" : ""}; took ${Math.round(seconds)} s).`,
    "",
    `Machine: ${machine.nproc} cores (${machine.cpu}), ${machine.memoryGiB} GiB, ${machine.platform}, Node ${machine.node}; load average at the end ${machine.loadAverage?.join(" / ") ?? "?"}.`,
    "",
    `Versions: ${versions}.`,
    "",
    `Noise: the spread ((max - min) / median of requests/s over the rounds) was ${Number.isFinite(summary.noise.medianSpread) ? `${Math.round(summary.noise.medianSpread * 100)}% in the median and ${Math.round(summary.noise.maxSpread * 100)}% at most` : "not measured (one round)"}.`,
    "",
    markdownTables(summary),
    "",
    DOC_END,
  ].join("\n");
}

/** Replaces the generated block of the doc (creating the doc around it when missing). */
export function updateDoc(path: string, block: string): void {
  if (!existsSync(path)) {
    writeFileSync(path, `# Benchmarks\n\n${block}\n`);
    return;
  }
  const text = readFileSync(path, "utf8");
  const start = text.indexOf(DOC_START);
  const end = text.indexOf(DOC_END);
  const next =
    start >= 0 && end > start
      ? text.slice(0, start) + block + text.slice(end + DOC_END.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(path, next);
}
