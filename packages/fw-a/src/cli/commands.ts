import { resolve } from "node:path";
import yargs, { type Argv } from "yargs";
import { describeScaffold, loadUserCommands, printRoutes, serve } from "koa-host/cli";
import { appMigrations } from "./db.js";
import { generateView, initApp } from "./init.js";

/** Builds the `fw-a` command line: gen:init, gen:serve, gen:view, routes, and the app's own commands. */
export async function buildCli(argv: readonly string[]): Promise<Argv> {
  const rootIndex = argv.indexOf("--root");
  const root = resolve(rootIndex >= 0 && argv[rootIndex + 1] ? argv[rootIndex + 1]! : process.cwd());
  const appIndex = argv.indexOf("--app");
  const appName = appIndex >= 0 ? argv[appIndex + 1] : undefined;
  const isInit = argv[0] === "gen:init";
  const userCommands = isInit ? [] : await loadUserCommands(root, appName).catch(() => []);

  let cli = yargs([...argv])
    .scriptName("fw-a")
    .usage("$0 <command> [options]")
    .option("root", { type: "string", describe: "the app folder", default: process.cwd() })
    .option("app", { type: "string", describe: "which app of a multi-application codebase (or APP_NAME)" })
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
    .command(
      "gen:serve",
      "serve the app, reloading on changes",
      (y) =>
        y
          .option("port", { type: "number", default: Number(process.env["PORT"] ?? 5000), describe: "port to listen on" })
          .option("host", { type: "string", default: "127.0.0.1", describe: "address to listen on" })
          .option("reload", { type: "boolean", default: true, describe: "restart on source changes (--no-reload to disable)" }),
      async (args) => {
        await serve({
          root: resolve(String(args.root)),
          port: args.port,
          hostname: args.host,
          reload: args.reload,
          ...(args.app ? { appName: String(args.app) } : {}),
        });
        await new Promise(() => undefined);
      },
    )
    .command(
      "gen:view <name>",
      "add a view module and its template",
      (y) => y.positional("name", { type: "string", demandOption: true }),
      (args) => describeScaffold(generateView(resolve(String(args.root)), String(args.name))),
    )
    .command(
      "routes",
      "list the route table",
      (y) => y.option("json", { type: "boolean", default: false }),
      async (args) => printRoutes({ root: resolve(String(args.root)), json: args.json, ...(args.app ? { appName: String(args.app) } : {}) }),
    );
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
      for (const state of await migrations.status()) console.log(`  ${state.applied ? "applied" : "pending"}  ${state.name}`);
    });
  for (const command of userCommands) cli = cli.command(command);
  return cli.demandCommand(1, "Name a command: fw-a --help lists them.").strict().help().wrap(Math.min(100, process.stdout.columns ?? 100))
    .fail((message, error) => {
      throw error ?? new Error(message);
    });
}

