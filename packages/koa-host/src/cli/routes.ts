import { relative } from "node:path";
import { formatRoutes, routeListing } from "../mounts.js";
import { writeRouteTypes } from "../route-types/write.js";
import { loadAppDefinition } from "./app-definition.js";

/** Prints an app's route table (verbs, path, handler, response kind), or its JSON with `json`. */
export async function printRoutes(options: {
  root: string;
  appName?: string;
  json?: boolean;
  /** Write `types/routes.d.ts` (typed urlFor) augmenting this framework module instead of printing the table. */
  types?: string;
  print?: (text: string) => void;
}): Promise<void> {
  const print = options.print ?? ((text: string) => console.log(text));
  const definition = await loadAppDefinition(options.root, options.appName);
  const host = await definition.create({ config: { logRequests: false, logLevel: "silent" } });
  try {
    if (options.types !== undefined) {
      const written = writeRouteTypes(definition.root, host.table, options.types);
      print(`${written.changed ? "Wrote" : "Unchanged:"} ${relative(process.cwd(), written.file) || written.file} (${host.table.routes.length} routes)`);
      return;
    }
    // Mounted apps' routes are listed too, under their prefix: they answer there, not the parent.
    print(options.json ? JSON.stringify(routeListing(host), null, 2) : formatRoutes(host));
  } finally {
    await host.close();
  }
}
