// A framework-like CLI over the shared production commands, as fw-a and fw-b register them, with
// stand-ins for a framework's migration commands (the release tests: no database needed).
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import {
  buildCommand,
  deployCommand,
  finishCli,
  frameworkCli,
  releaseCommands,
  startCommand,
} from "../../src/index.js";
import { runExecutable } from "../../src/start-entry.js";

// FIXTURE_MIGRATIONS names the file of applied migrations (a name a line); FIXTURE_MIGRATION the
// migration the release brings; FIXTURE_MIGRATE_MS how long applying it takes.
const appliedFile = process.env["FIXTURE_MIGRATIONS"] ?? "";
const migration = process.env["FIXTURE_MIGRATION"] ?? "001_fixture";
const applied = () => (existsSync(appliedFile) ? readFileSync(appliedFile, "utf8").split("\n").filter(Boolean) : []);

// The executable fw-a and fw-b run: a plain start line is read without yargs, so the production
// tests run the path a user's `npm start` takes; every other line goes through the full command line.
await runExecutable(undefined, async (argv) => {
  let cli = frameworkCli("fixture", argv)
    .command(buildCommand("build", "fixture"))
    .command(startCommand("start"))
    .command(deployCommand("deploy", "fixture"))
    .command("migrate", "apply the fixture's migration", {}, async () => {
      // FIXTURE_MIGRATE_QUIET: nothing written before the migration is applied (a write to the
      // pipe of a release command that died would end this process on its own).
      if (!process.env["FIXTURE_MIGRATE_QUIET"]) console.log(`migrating in ${process.pid}`);
      if (applied().includes(migration)) return console.log("Nothing to migrate.");
      await new Promise((resolve) => setTimeout(resolve, Number(process.env["FIXTURE_MIGRATE_MS"] ?? 0)));
      if (process.env["FIXTURE_MIGRATE_FAIL"]) throw new Error("the fixture migration failed");
      appendFileSync(appliedFile, `${migration}\n`);
      console.log(`applied ${migration}`);
    })
    .command("migrations", "list the fixture's migrations", {}, () => {
      const done = applied();
      for (const name of done) console.log(`[x] ${name}`);
      if (!done.includes(migration)) console.log(`[ ] ${migration}`);
    });
  for (const command of releaseCommands({
    framework: "fixture",
    release: "release",
    rollback: "release:rollback",
    migrate: "migrate",
    status: "migrations",
  }))
    cli = cli.command(command);
  return finishCli(cli, "fixture");
});
