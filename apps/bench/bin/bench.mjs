#!/usr/bin/env node
// `pnpm bench`: builds the bench and the workspace packages it measures (turbo; cached when
// nothing changed), then runs the runner pinned to core 1 so that servers own core 0.
// `--no-build` skips the build step; every other argument goes to the runner (docs/benchmarks.md).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pnpmEnv, root } from "../../../scripts/pnpm.mjs";

const here = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(`Usage: pnpm bench [--cpu] [--no-build] [options]

  (no mode)   the full run: every server and workload, results in apps/bench/results/latest.json
              options: --quick --rounds=N --duration=S --warmup=S --connections=N --only=NAME[,NAME]
                       --scenarios=NAME[,NAME] --sizes=N[,N] --no-scaffold --profile --doc --no-doc
                       --loader=wrk|autocannon --priority --fresh=SCENARIO[,SCENARIO] --from=FILE
  --cpu       CPU time per request against bare Koa and Koa with the same middleware, and start-up
              options: --rounds=N --window=S --warmup=S --connections=N --starts=N --loader=NAME --only=ROW
              --start-only (the start-up rows alone: spawn to the first 200, no load)
              --parts (each part of the production defaults: a row without it, and what it costs)
  --instructions
              the --cpu rows counted in machine instructions under Valgrind's callgrind, which other
              work on the machine cannot move (needs valgrind; a run takes about 10 minutes)
              options: --requests=N --warmup=N --connections=N --jobs=N --only=ROW --parts --no-start
  --no-build  skip the build of the bench and the packages it measures

Every option is described in docs/benchmarks.md, "Reproduce".`);
  process.exit(0);
}
const noBuild = args.includes("--no-build");
// `--cpu`: CPU time per request against both Koa baselines, and start-up (dist/cpu-mode.js).
const cpuMode = args.includes("--cpu");
// `--instructions`: the same rows in instructions per request under callgrind (dist/instructions-mode.js).
const instructionsMode = args.includes("--instructions");
const rest = args.filter((a) => a !== "--no-build" && a !== "--cpu" && a !== "--instructions");

if (!noBuild) {
  const build = spawnSync(
    join(root, "node_modules", ".bin", "turbo"),
    ["run", "build", "--filter=bench...", "--output-logs=errors-only"],
    {
      cwd: root,
      stdio: "inherit",
      env: pnpmEnv(),
    },
  );
  if (build.status !== 0) {
    console.error("bench: the build failed (see above); fix it or run with --no-build against the last build.");
    process.exit(build.status ?? 1);
  }
}
const pinnable = spawnSync("taskset", ["-c", "1", "true"]).status === 0;
if (!pinnable) console.error("bench: taskset is missing; the runner cannot be pinned.");
// --priority: the runner, and so the servers and wrk it starts, run at nice -10 (root only), which
// keeps other work on a shared machine from taking their core in the middle of a run.
const nice = rest.includes("--priority") ? ["nice", "-n", "-10"] : [];
const [command, ...commandArgs] = [
  ...nice,
  ...(pinnable ? ["taskset", "-c", "1"] : []),
  process.execPath,
  cpuMode ? "dist/cpu-mode.js" : instructionsMode ? "dist/instructions-mode.js" : "dist/cli.js",
  ...rest,
];
const run = spawnSync(command, commandArgs, { cwd: here, stdio: "inherit" });
if (run.status === 0 && !cpuMode) {
  // One password hash at the default cost (a figure to read, too slow for a test).
  console.log("\nPassword hashing (security package defaults):");
  spawnSync(process.execPath, ["dist/password-hash.js"], { cwd: here, stdio: "inherit" });
}
process.exit(run.status ?? 1);
