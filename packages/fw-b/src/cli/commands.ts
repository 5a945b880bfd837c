import { resolve } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { seedCliCommand } from "@fwkit/data/plugin";
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
import { userCliCommands } from "../contrib/auth/user-commands.js";
import { databaseCliCommands, withDatabase } from "./migrations.js";
import { fwbResourceScaffold } from "./resource.js";
import { addView, initApp } from "./scaffold.js";
import { PACKAGE_ROOT } from "../paths.js";

/**
 * Builds the `fw-b` command line: `:init`, `:serve`, `:addview`, `:routes`, the migration
 * commands, `:seed`, `:console`, and the app's own commands from `run/scripts.ts`.
 */
export async function buildCli(argv: readonly string[]): Promise<Argv> {
  // A run/scripts.ts that fails to load stops every command but :init, saying why.
  const userCommands = await userCommandsFor(argv, ":init");

  let cli = frameworkCli("fw-b", argv, PACKAGE_ROOT)
    .command(
      initCommand({
        name: ":init",
        description:
          "create a TypeScript app skeleton in the app folder (never overwrites a file; merges into a package.json)",
        init: (dir, options) => initApp(dir, new Date(), options),
        serve: "fw-b :serve",
      }),
    )
    .command(serveCommand(":serve"))
    .command(
      ":addview <name>",
      "add a view module and its template (views/NAME.ts, templates/NAME/<Class>/index.pug), in the menu after the existing entries",
      (y) =>
        y.positional("name", { type: "string", demandOption: true }).option("order", {
          type: "number",
          describe: "its place in the menu, lower first (Home is 0; default: after the existing entries)",
        }),
      (args) =>
        describeScaffold(
          addView(resolve(String(args.root)), String(args.name), args.order === undefined ? {} : { order: args.order }),
        ),
    )
    .command(
      resourceCommand(
        ":resource",
        fwbResourceScaffold,
        "edit the migration, or run npx fw-b :migrate to apply it as written; then npm test",
      ) as CommandModule,
    )
    .command(routesCommand(":routes", { module: "fw-b" }))
    .command(buildCommand(":build", "fw-b", ":migrate", ":release"))
    .command(startCommand("start"))
    .command(deployCommand(":deploy", "fw-b"));
  for (const command of releaseCommands({
    framework: "fw-b",
    release: ":release",
    rollback: ":release-rollback",
    migrate: ":migrate",
    status: ":migrations",
  }))
    cli = cli.command(command);
  for (const command of databaseCliCommands((args) => resolve(String(args["root"])))) cli = cli.command(command);
  cli = cli
    .command(seedCliCommand(":seed", "fw-b", (args) => commandConfig(resolve(String(args["root"])))) as CommandModule)
    .command(consoleCommand(":console", "fw-b") as CommandModule);
  for (const command of userCliCommands({
    config: (args) => commandConfig(resolve(String(args["root"]))),
    withDatabase,
  }))
    cli = cli.command(command);
  // The job queue's commands (worker, failed jobs, schedules), under fw-b's names.
  for (const command of jobsCommands({
    work: ":work",
    failed: ":failed",
    retry: ":retry",
    clear: ":clear",
    schedule: ":schedule",
    dispatch: ":dispatch",
  }))
    cli = cli.command(command);
  for (const command of userCommands) cli = cli.command(command);
  return finishCli(cli, "fw-b");
}
