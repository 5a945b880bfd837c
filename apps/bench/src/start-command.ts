// The start-up as a user meets it: `fw-a start` or `fw-b start` of an app scaffolded and built with
// the framework's own CLI (`--workers 1`: one process, production mode), from the spawn of the
// command to the first 200 on `/`, the home page the scaffold renders from a template. The command
// keeps Node's compile cache, as it does for a user, so the first start of a build fills it and is
// not counted. The CPU mode's other start rows load the bench's app directly, without the command
// line and without the cache.
import { binOf, builtApp, type FRAMEWORKS, freePort, productionEnv, spawnToFirst200 } from "./scaffold.js";

/** The frameworks whose `start` command is timed. */
export type StartCommandFramework = keyof typeof FRAMEWORKS;

const warmed = new Set<StartCommandFramework>();

/** Spawn of `<framework> start --workers 1` on `core` to its first 200 on `/`, in ms (NaN if none within 60 s). */
async function timeStart(framework: StartCommandFramework, core: number | undefined): Promise<number> {
  const cwd = builtApp(framework);
  const port = await freePort();
  const cli = [binOf(framework), "start", "--workers", "1", "--port", String(port), "--host", "127.0.0.1"];
  return spawnToFirst200(cli, { core, cwd, env: productionEnv(), port, timeoutMs: 60_000, stopMs: 15_000 });
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
