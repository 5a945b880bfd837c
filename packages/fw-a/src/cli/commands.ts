import { resolve } from "node:path";
import { migrationCliCommands, migrationCommands, seedCliCommand } from "@fwkit/data/plugin";
import type { Argv, CommandModule } from "yargs";
import {
  buildCommand,
  commandConfig,
  consoleCommand,
  deployCommand,
  resourceCommand,
  describeScaffold,
  finishCli,
  frameworkCli,
  initCommand,
  jobsCommands,
  releaseCommands,
  routesCommand,
  serveCommand,
  startCommand,
  userCommandsFor,
} from "@fwkit/cli";
import { frameworkDir, generateView, initApp } from "./init.js";
import { fwaResourceScaffold } from "./resource.js";

/** Builds the `fw-a` command line: gen:init, gen:serve, gen:view, routes, db:*, console, and the app's own commands. */
export async function buildCli(argv: readonly string[]): Promise<Argv> {
  // A run/scripts.ts that fails to load stops every command but gen:init, saying why.
  const userCommands = await userCommandsFor(argv, "gen:init");

  let cli = frameworkCli("fw-a", argv, frameworkDir)
    .command(
      initCommand({
        name: "gen:init",
        description: "create the project skeleton in the current folder (never overwrites; merges into a package.json)",
        init: (dir, options) => initApp(dir, new Date(), options),
        serve: "fw-a gen:serve",
      }),
    )
    .command(serveCommand("gen:serve"))
    .command(
      "gen:view <name>",
      "add a view module and its template (views/NAME.ts, templates/NAME/<Class>/index.html; admin/users makes a sub-folder)",
      (y) => y.positional("name", { type: "string", demandOption: true }),
      (args) => describeScaffold(generateView(resolve(String(args.root)), String(args.name))),
    )
    .command(
      resourceCommand(
        "gen:resource",
        fwaResourceScaffold,
        "edit the migration, or run npx fw-a db:migrate to apply it as written; then npm test",
      ) as CommandModule,
    )
    .command(routesCommand("routes", { module: "fw-a" }))
    .command(buildCommand("gen:build", "fw-a", "db:migrate", "release"))
    .command(startCommand("start"))
    .command(deployCommand("gen:deploy", "fw-a"));
  for (const command of releaseCommands({
    framework: "fw-a",
    release: "release",
    rollback: "release:rollback",
    migrate: "db:migrate",
    status: "db:status",
  }))
    cli = cli.command(command);
  // The data battery's migration commands, under fw-a's names.
  const migrations = async (args: Record<string, unknown>) =>
    migrationCommands(await commandConfig(resolve(String(args["root"]))), { typesFrom: "fw-a" });
  for (const command of migrationCliCommands(
    { migrate: "db:migrate", rollback: "db:rollback", make: "db:make", status: "db:status" },
    migrations,
  )) {
    cli = cli.command(command as CommandModule);
  }
  cli = cli
    .command(seedCliCommand("db:seed", "fw-a", (args) => commandConfig(resolve(String(args["root"])))) as CommandModule)
    .command(consoleCommand("console", "fw-a") as CommandModule);
  // The job queue's commands (worker, failed jobs, schedules), under fw-a's names.
  for (const command of jobsCommands({
    work: "jobs:work",
    failed: "jobs:failed",
    retry: "jobs:retry",
    clear: "jobs:clear",
    schedule: "jobs:schedule",
    dispatch: "jobs:dispatch",
  }))
    cli = cli.command(command);
  for (const command of userCommands) cli = cli.command(command);
  return finishCli(cli, "fw-a");
}
