import { resolve } from "node:path";
import yargs, { type Argv } from "yargs";
import { describeScaffold, loadUserCommands, printRoutes, serve } from "koa-host/cli";
import { migrationCliCommands } from "./migrations.js";
import { addView, initApp } from "./scaffold.js";

/** The value following `flag` in raw arguments (before yargs parses them). */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  if (index >= 0) return argv[index + 1];
  return argv.find((arg) => arg.startsWith(`${flag}=`))?.slice(flag.length + 1);
}

/**
 * Builds the `fw-b` command line: `:init`, `:serve`, `:addview`, `:routes`, the migration
 * commands, and the app's own commands from `run/scripts.ts`.
 */
export async function buildCli(argv: readonly string[]): Promise<Argv> {
  const root = resolve(flagValue(argv, "--root") ?? process.cwd());
  const appName = flagValue(argv, "--app");
  const userCommands = argv[0] === ":init" ? [] : await loadUserCommands(root, appName);

  let cli = yargs([...argv])
    .scriptName("fw-b")
    .usage("$0 <command> [options]")
    .option("root", { type: "string", describe: "the app folder", default: process.cwd() })
    .option("app", { type: "string", describe: "which app of a multi-application codebase (or APP_NAME)" })
    .command(
      ":init",
      "create a TypeScript app skeleton in the app folder (never overwrites a file)",
      (y) => y,
      (args) => {
        const result = initApp(resolve(String(args.root)));
        describeScaffold(result);
        if (result.skipped.length > 0) console.log(`\n${result.skipped.length} existing file(s) left untouched.`);
        console.log("\nNext: npx fw-b :serve   (then open http://127.0.0.1:5000)");
      },
    )
    .command(
      ":serve",
      "serve the app, restarting when a source file changes",
      (y) =>
        y
          .option("port", { type: "number", default: Number(process.env["PORT"] ?? 5000), describe: "port to listen on" })
          .option("host", { type: "string", default: "127.0.0.1", describe: "address to listen on" })
          .option("reload", { type: "boolean", default: true, describe: "restart on source changes (--no-reload to disable)" }),
      async (args) => {
        if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) {
          throw new Error(`--port must be a whole number from 0 to 65535, not ${String(args.port)}.`);
        }
        await serve({
          root: resolve(String(args.root)),
          port: args.port,
          hostname: args.host,
          reload: args.reload,
          ...(args.app ? { appName: String(args.app) } : {}),
        });
        // The server (or the reloading child) keeps the process alive until SIGTERM or SIGINT.
      },
    )
    .command(
      ":addview <name>",
      "add a view module and its template (views/NAME.ts, templates/NAME/<Class>/index.pug)",
      (y) => y.positional("name", { type: "string", demandOption: true }),
      (args) => describeScaffold(addView(resolve(String(args.root)), String(args.name))),
    )
    .command(
      ":routes",
      "list the route table: verbs, path, handler, response kind",
      (y) => y.option("json", { type: "boolean", default: false, describe: "print JSON" }),
      (args) => printRoutes({ root: resolve(String(args.root)), json: args.json, ...(args.app ? { appName: String(args.app) } : {}) }),
    );
  for (const command of migrationCliCommands((args) => resolve(String(args["root"])))) cli = cli.command(command);
  for (const command of userCommands) cli = cli.command(command);
  return cli
    .demandCommand(1, "Name a command: fw-b --help lists them.")
    .strict()
    .help()
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .fail((message, error) => {
      throw error ?? new Error(message);
    });
}
