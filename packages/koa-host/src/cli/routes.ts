import { formatRoutes, routeListing } from "../mounts.js";
import { loadAppDefinition } from "./app-definition.js";

/** Prints an app's route table (verbs, path, handler, response kind), or its JSON with `json`. */
export async function printRoutes(options: { root: string; appName?: string; json?: boolean; print?: (text: string) => void }): Promise<void> {
  const print = options.print ?? ((text: string) => console.log(text));
  const definition = await loadAppDefinition(options.root, options.appName);
  const host = await definition.create({ config: { logRequests: false, logLevel: "silent" } });
  try {
    // Mounted apps' routes are listed too, under their prefix: they answer there, not the parent.
    print(options.json ? JSON.stringify(routeListing(host), null, 2) : formatRoutes(host));
  } finally {
    await host.close();
  }
}
