import { relative } from "node:path";
import { formatRoutes, routeListing } from "@fwkit/koa-host/operations";
import { openApiDocument, openApiSources } from "@fwkit/koa-host";
import { openApiSettings } from "@fwkit/koa-host/operations";
import { writeRouteTypes } from "./route-types/write.js";
import { loadAppDefinition } from "@fwkit/koa-host/operations";
import { inRole } from "./app-args.js";

/** Prints an app's route table (verbs, path, handler, response kind), or its JSON with `json`. */
export async function printRoutes(options: {
  root: string;
  appName?: string;
  json?: boolean;
  /** Write `types/routes.d.ts` (typed urlFor) augmenting this framework module instead of printing the table (with `json`, say what was written as JSON). */
  types?: string;
  /** Print the app's OpenAPI 3.1 document instead of the table (HTML routes only with `includeHtml`). */
  openapi?: { readonly includeHtml?: boolean };
  print?: (text: string) => void;
  /** Where warnings go (schemas left out of the OpenAPI document); default stderr. */
  warn?: (text: string) => void;
}): Promise<void> {
  const print = options.print ?? ((text: string) => console.log(text));
  const definition = await loadAppDefinition(options.root, options.appName);
  // A listing opens no metrics port (start may hold it).
  const host = await inRole("command", () => definition.create({ config: { logRequests: false, logLevel: "silent" } }));
  try {
    if (options.types !== undefined) {
      const written = writeRouteTypes(definition.root, host.table, options.types);
      if (options.json)
        print(
          JSON.stringify({ file: written.file, changed: written.changed, routes: host.table.routes.length }, null, 2),
        );
      else
        print(
          `${written.changed ? "Wrote" : "Unchanged:"} ${relative(process.cwd(), written.file) || written.file} (${host.table.routes.length} route${host.table.routes.length === 1 ? "" : "s"})`,
        );
      return;
    }
    if (options.openapi) {
      const settings = openApiSettings({ ...host.config, openapi: { ...host.config.openapi, serve: true } });
      const { document, warnings } = await openApiDocument(openApiSources(host), {
        ...settings,
        includeHtml: options.openapi.includeHtml ?? settings?.includeHtml ?? false,
      });
      for (const warning of warnings) (options.warn ?? ((text: string) => console.error(text)))(`warning: ${warning}`);
      print(JSON.stringify(document, null, 2));
      return;
    }
    // Mounted apps' routes are listed too, under their prefix: they answer there, not the parent.
    print(options.json ? JSON.stringify(routeListing(host), null, 2) : formatRoutes(host));
  } finally {
    await host.close();
  }
}
