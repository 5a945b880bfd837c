// The program each cluster worker runs: the server bundle's copy of the worker when the build it
// serves has a bundle that may serve (a new release's, after a rolling restart), else, or when the
// bundle does not load, the worker from the command line's own files. Options arrive as JSON in
// FW_START_OPTIONS.
import { pathToFileURL } from "node:url";
import { usableBundle } from "./manifest.js";

const options = JSON.parse(process.env["FW_START_OPTIONS"] ?? "{}") as { appRoot?: string; built?: boolean };
const found = options.built && options.appRoot ? usableBundle(options.appRoot) : undefined;
let bundle: { worker: () => Promise<unknown> } | undefined;
if (found && "file" in found) {
  try {
    bundle = (await import(pathToFileURL(found.file).href)) as { worker: () => Promise<unknown> };
  } catch (error) {
    process.emitWarning(
      `the build's server bundle does not serve in this worker: it failed to load (${(error as Error)?.message ?? String(error)}); serving the build's files instead`,
    );
  }
}
if (bundle) await bundle.worker();
else await import(`../worker-main${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`);
