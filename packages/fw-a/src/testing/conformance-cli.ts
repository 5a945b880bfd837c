import { fileURLToPath } from "node:url";

/** Whether this module runs from the TypeScript sources (the repository's tests) or from the build. */
const fromSources = import.meta.url.endsWith(".ts");

/**
 * The command-line part of fw-a's conformance adapter: the `fw-a` CLI (its sources through tsx in
 * the repository, `bin/fw-a.js` once built) and fw-a's names of the shared commands.
 */
export const conformanceCli = Object.freeze({
  argv: Object.freeze(
    fromSources
      ? [
          "--conditions=source",
          `--import=${import.meta.resolve("tsx")}`,
          fileURLToPath(new URL("../cli/main.ts", import.meta.url)),
        ]
      : [fileURLToPath(new URL("../../bin/fw-a.js", import.meta.url))],
  ),
  commands: Object.freeze({
    init: "gen:init",
    serve: "gen:serve",
    routes: "routes",
    makeMigration: "db:make",
    migrationStatus: "db:status",
  }),
});
