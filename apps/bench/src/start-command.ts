// The start-up as a user meets it: `fw-a start` or `fw-b start` of an app scaffolded and built with
// the framework's own CLI (`--workers 1`: one process, production mode), from the spawn of the
// command to the first 200 on `/`, the home page the scaffold renders from a template. The command
// keeps Node's compile cache, as it does for a user, so the first start of a build fills it and is
// not counted. The CPU mode's other start rows load the bench's app directly, without the command
// line and without the cache.
import { spawn } from "node:child_process";
import { pinned } from "./processes.js";
import { binOf, builtApp, type FRAMEWORKS, freePort, productionEnv } from "./scaffold.js";

/** The frameworks whose `start` command is timed. */
export type StartCommandFramework = keyof typeof FRAMEWORKS;

const warmed = new Set<StartCommandFramework>();

/** Spawn of `<framework> start --workers 1` on `core` to its first 200 on `/`, in ms (NaN if none within 60 s). */
async function timeStart(framework: StartCommandFramework, core: number | undefined): Promise<number> {
  const dir = builtApp(framework);
  const port = await freePort();
  const cli = [binOf(framework), "start", "--workers", "1", "--port", String(port), "--host", "127.0.0.1"];
  const { command, args } = pinned(core, cli);
  const started = performance.now();
  const child = spawn(command, args, { cwd: dir, stdio: "ignore", env: productionEnv() });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let ms = Number.NaN;
  try {
    while (performance.now() - started < 60_000 && child.exitCode === null) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        await response.arrayBuffer();
        if (response.status === 200) {
          ms = performance.now() - started;
          break;
        }
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
  return ms;
}

/**
 * One timed start of the framework's `start` command on `core`; the first call for a framework
 * builds its app and makes one start that is not counted, which fills the compile cache.
 */
export async function startCommandToFirst200(
  framework: StartCommandFramework,
  core: number | undefined,
): Promise<number> {
  if (!warmed.has(framework)) {
    await timeStart(framework, core);
    warmed.add(framework);
  }
  return timeStart(framework, core);
}
