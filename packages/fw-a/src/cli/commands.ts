import { join, resolve } from "node:path";
import { DRAFT_NOTE, isDraftFile } from "@fwkit/data";
import type { Argv } from "yargs";
import { buildCommand, deployCommand, describeScaffold, finishCli, frameworkCli, routesCommand, serveCommand, startCommand, userCommandsFor } from "@fwkit/koa-host/cli";
import { appMigrations } from "./db.js";
import { generateView, initApp } from "./init.js";

/** Builds the `fw-a` command line: gen:init, gen:serve, gen:view, routes, and the app's own commands. */
export async function buildCli(argv: readonly string[]): Promise<Argv> {
  // A run/scripts.ts that fails to load stops every command but gen:init, saying why.
  const userCommands = await userCommandsFor(argv, "gen:init");

  let cli = frameworkCli("fw-a", argv)
    .command(
      "gen:init",
      "create the project skeleton in the current folder (never overwrites)",
      (y) => y,
      (args) => {
        const result = initApp(resolve(String(args.root)));
        describeScaffold(result);
        console.log("\nNext: fw-a gen:serve   (then open http://127.0.0.1:5000)");
      },
    )
    .command(serveCommand("gen:serve"))
    .command(
      "gen:view <name>",
      "add a view module and its template",
      (y) => y.positional("name", { type: "string", demandOption: true }),
      (args) => describeScaffold(generateView(resolve(String(args.root)), String(args.name))),
    )
    .command(routesCommand("routes", { module: "fw-a" }))
    .command(buildCommand("gen:build", "fw-a"))
    .command(startCommand("start"))
    .command(deployCommand("gen:deploy", "fw-a"));
  cli = cli
    .command("db:migrate", "apply pending migrations", (y) => y, async (args) => {
      const migrations = await appMigrations(resolve(String(args.root)));
      const applied = await migrations.migrate();
      console.log(applied.length ? applied.map((name) => `  migrated  ${name}`).join("\n") : `Nothing to migrate (${migrations.url}).`);
    })
    .command("db:rollback", "undo the last batch of migrations", (y) => y.option("all", { type: "boolean", default: false, describe: "undo every batch" }), async (args) => {
      const migrations = await appMigrations(resolve(String(args.root)));
      const undone = await migrations.rollback({ all: args.all });
      console.log(undone.length ? undone.map((name) => `  rolled back  ${name}`).join("\n") : "Nothing to roll back.");
    })
    .command("db:make <name>", "write a new migration file", (y) => y.positional("name", { type: "string", demandOption: true }), async (args) => {
      const migrations = await appMigrations(resolve(String(args.root)));
      console.log(`  create  ${migrations.make(String(args.name))}`);
    })
    .command("db:status", "list migrations and whether they are applied", (y) => y, async (args) => {
      const migrations = await appMigrations(resolve(String(args.root)));
      for (const state of await migrations.status()) {
        const draft = !state.applied && isDraftFile(join(migrations.dir, state.name));
        console.log(`  ${state.applied ? "applied" : "pending"}  ${state.name}${draft ? `  ${DRAFT_NOTE}` : ""}`);
      }
    });
  for (const command of userCommands) cli = cli.command(command);
  return finishCli(cli, "fw-a");
}

