// The program each cluster worker runs: the server bundle's copy of the worker when the build it
// serves has a bundle that may serve (a new release's, after a rolling restart), else the worker
// from the command line's own files. Options arrive as JSON in FW_START_OPTIONS.
import { pathToFileURL } from "node:url";
import { usableBundle } from "./manifest.js";

const options = JSON.parse(process.env["FW_START_OPTIONS"] ?? "{}") as { appRoot?: string; built?: boolean };
const found = options.built && options.appRoot ? usableBundle(options.appRoot) : undefined;
if (found && "file" in found) {
  const bundle = (await import(pathToFileURL(found.file).href)) as { worker: () => Promise<unknown> };
  await bundle.worker();
} else {
  await import(`../worker-main${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`);
}
