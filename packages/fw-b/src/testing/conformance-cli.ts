import { fileURLToPath } from "node:url";

/** Whether this module runs from the TypeScript sources (the repository's tests) or from the build. */
const fromSources = import.meta.url.endsWith(".ts");

/**
 * The command-line part of fw-b's conformance adapter: the `fw-b` CLI (its sources through tsx in
 * the repository, `bin/fw-b.js` once built) and fw-b's names of the shared commands.
 */
export const conformanceCli = Object.freeze({
  argv: Object.freeze(
    fromSources
      ? [
          "--conditions=source",
          `--import=${import.meta.resolve("tsx")}`,
          fileURLToPath(new URL("../cli/main.ts", import.meta.url)),
        ]
      : [fileURLToPath(new URL("../../bin/fw-b.js", import.meta.url))],
  ),
  commands: Object.freeze({
    init: ":init",
    serve: ":serve",
    routes: ":routes",
    makeMigration: ":make-migration",
    migrationStatus: ":migrations",
  }),
});
