// Summarises a V8 .cpuprofile (from `pnpm bench --profile` or `node --cpu-prof`): the functions
// with the most self time, and the share of time under each package.
//   node dist/profile-summary.js results/profiles/fw-a-basic.cpuprofile [top=25] [requests served]
import { readFileSync } from "node:fs";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
  readonly children?: readonly number[];
}

/**
 * Self time per function and per package of a CPU profile, as text lines: shares of all samples,
 * or microseconds per request when the number of requests served is given.
 */
export function summariseProfile(
  profile: { nodes: readonly ProfileNode[]; samples?: readonly number[]; timeDeltas?: readonly number[] },
  top = 25,
  requests?: number,
): string[] {
  // Time of each sample: the delta to the next one (microseconds).
  const hits = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++)
    hits.set(samples[i]!, (hits.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 1));
  const total = [...hits.values()].reduce((a, b) => a + b, 0) || 1;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    const count = hits.get(node.id) ?? 0;
    if (!count) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url
      .replace(/^file:\/\//, "")
      .replace(/.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
      .replace(/.*\/packages\//, "ws:");
    const key = `${functionName || "(anonymous)"} ${where ? `${where}:${lineNumber + 1}` : ""}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + count);
    const pkg = !url
      ? functionName.startsWith("(")
        ? functionName
        : "(native)"
      : url.startsWith("node:")
        ? "node core"
        : (/^ws:([^/]+)/.exec(where)?.[1] ?? /^((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ?? where);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + count);
  }
  const busy = total - (byFunction.get("(idle)") ?? 0);
  const value = (count: number) =>
    requests
      ? `${(count / requests).toFixed(2).padStart(6)} us/req`
      : `${((count / total) * 100).toFixed(1).padStart(5)}%`;
  const fmt = (entries: Map<string, number>, n: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, count]) => `${value(count)}  ${key}`);
  if (requests) byPackage.set("(all but idle)", busy);
  return [
    "self time by package:",
    ...fmt(byPackage, 15),
    "",
    `top ${top} functions by self time:`,
    ...fmt(byFunction, top),
  ];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const [file, top = "25", requests] = process.argv.slice(2);
  if (!file) {
    console.error("usage: node dist/profile-summary.js <file.cpuprofile> [top]");
    process.exit(1);
  }
  console.log(
    summariseProfile(JSON.parse(readFileSync(file, "utf8")), Number(top), requests ? Number(requests) : undefined).join(
      "\n",
    ),
  );
}
