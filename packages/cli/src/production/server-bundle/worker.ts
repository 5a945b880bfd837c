// The program each cluster worker runs: the server bundle's copy of the worker when the build it
// serves has a bundle that may serve (a new release's, after a rolling restart), else the worker
// from the command line's own files. Options arrive as JSON in FW_START_OPTIONS.
import { loadBundle } from "./launch.js";

const options = JSON.parse(process.env["FW_START_OPTIONS"] ?? "{}") as { appRoot?: string; built?: boolean };
const bundle = options.built && options.appRoot ? await loadBundle(options.appRoot) : undefined;
if (bundle && "worker" in bundle) await bundle.worker();
else {
  // Each worker says why: after a release its build is not the one the primary started with.
  if (bundle) process.emitWarning(`the build's server bundle does not serve in this worker: ${bundle.skipped}`);
  await import(`../worker-main${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`);
}
