import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import yargs, { type Argv, type CommandModule } from "yargs";
import { setDriverRoot } from "@fwkit/battery-kit/host";
import { printRoutes } from "./routes.js";
import { serve } from "./serve.js";
import { noCommandMessage, usageErrorMessage } from "./usage-error.js";
import { appOf, type AppArgs } from "./app-args.js";
import { E_CLI_USAGE, E_START_OPTION } from "./errors.js";

// The raw arguments of each command line, for the messages of finishCli's failure handler.
const rawArguments = new WeakMap<Argv, readonly string[]>();

/** The value following `flag` in raw arguments (before yargs parses them), e.g. `--root DIR` or `--root=DIR`. */
export function flagValue(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  if (index >= 0) return argv[index + 1];
  return argv.find((arg) => arg.startsWith(`${flag}=`))?.slice(flag.length + 1);
}

/** The app folder and app name a command line names (`--root`, `--app`), read before yargs runs. */
export function appTarget(argv: readonly string[]): { root: string; appName: string | undefined } {
  return { root: resolve(flagValue(argv, "--root") ?? process.cwd()), appName: flagValue(argv, "--app") };
}

/**
 * The start of a framework's command line: its name, its version (`--version` prints the version of
 * the framework's package at `packageDir`), and the `--root` and `--app` options every command takes.
 */
export function frameworkCli(name: string, argv: readonly string[], packageDir?: string): Argv {
  const cli = yargs([...argv]);
  rawArguments.set(cli, argv);
  const version =
    packageDir === undefined
      ? undefined
      : (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version?: string }).version;
  const named = cli.scriptName(name);
  return (
    (version === undefined ? named.version(false) : named.version(version))
      .usage("$0 <command> [options]")
      .option("root", { type: "string", describe: "the app folder", default: process.cwd() })
      .option("app", { type: "string", describe: "which app of a multi-application codebase (or APP_NAME)" })
      // The app's drivers load from its folder (--root) also in commands that build no host (db:*).
      .middleware((args) => setDriverRoot(resolve(String(args["root"] ?? process.cwd()))))
  );
}

/**
 * The end of a framework's command line: a command is required; an unknown command fails with the
 * closest one ("did you mean"), an unknown option with the closest option and the list of known
 * ones; failures throw (runCli reports them).
 */
export function finishCli(cli: Argv, name: string): Argv {
  const argv = rawArguments.get(cli) ?? [];
  // The commands as declared (`gen:view <name>`), for suggestions and missing-argument messages.
  const handlers = (
    cli as unknown as {
      getInternalMethods(): { getCommandInstance(): { getCommandHandlers(): Record<string, { original: string }> } };
    }
  )
    .getInternalMethods()
    .getCommandInstance()
    .getCommandHandlers();
  const commands = Object.values(handlers).map((handler) => handler.original);
  return cli
    .demandCommand(1, noCommandMessage(name))
    .strict()
    .help()
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .fail((message, error, usage) => {
      if (error) throw error;
      // yargs hands its usage object to the failure handler: its descriptions are the options known where parsing stopped.
      const knownOptions = Object.keys(
        (usage as unknown as { getDescriptions(): Record<string, unknown> }).getDescriptions(),
      );
      throw new E_CLI_USAGE(usageErrorMessage(message, { name, argv, knownOptions, commands }));
    });
}

/** The serve command (`gen:serve`, `:serve`): `--port 5000 --host 127.0.0.1 [--no-reload]`. */
export function serveCommand(
  command: string,
): CommandModule<AppArgs, AppArgs & { port: number; host: string; reload: boolean }> {
  return {
    command,
    describe: "serve the app, restarting when a source file changes",
    builder: (y) =>
      y
        .option("port", { type: "number", default: Number(process.env["PORT"] ?? 5000), describe: "port to listen on" })
        .option("host", { type: "string", default: "127.0.0.1", describe: "address to listen on" })
        .option("reload", {
          type: "boolean",
          default: true,
          describe: "restart on source changes (--no-reload to disable)",
        }) as never,
    async handler(args) {
      if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) {
        throw new E_START_OPTION("--port", "a whole number from 0 to 65535", args.port);
      }
      // The server (or the reloading child) keeps the process alive until SIGTERM or SIGINT.
      await serve({ ...appOf(args), port: args.port, hostname: args.host, reload: args.reload });
    },
  };
}

/**
 * The route listing command (`routes`, `:routes`): verbs, path, handler, response kind; `--json`;
 * `--types` writes `types/routes.d.ts` augmenting the framework module `framework.module` (typed
 * urlFor), and with `--json` prints what it wrote as JSON.
 */
export function routesCommand(
  command: string,
  framework: { readonly module: string } = { module: "@fwkit/koa-host" },
): CommandModule<AppArgs, AppArgs & { json: boolean; types: boolean; openapi: boolean; includeHtml: boolean }> {
  return {
    command,
    describe: "list the route table: verbs, path, handler, response kind",
    builder: (y) =>
      y
        .option("json", { type: "boolean", default: false, describe: "print JSON" })
        .option("types", {
          type: "boolean",
          default: false,
          describe: "write types/routes.d.ts so urlFor checks route names and parameters",
        })
        .option("openapi", {
          type: "boolean",
          default: false,
          describe: "print an OpenAPI 3.1 document of the JSON and XML routes",
        })
        .option("include-html", {
          type: "boolean",
          default: false,
          describe: "with --openapi: document the HTML routes too",
        })
        // yargs' conflicts() counts the defaults as given, so the one combination that cannot work is checked here.
        .check((args) => {
          if (args["types"] && args["openapi"])
            throw new E_CLI_USAGE(
              `--types writes types/routes.d.ts and --openapi prints a document: run ${command} once for each.`,
            );
          return true;
        }) as never,
    handler: (args) =>
      printRoutes({
        ...appOf(args),
        json: args.json,
        ...(args.types ? { types: framework.module } : {}),
        ...(args.openapi ? { openapi: { includeHtml: args.includeHtml } } : {}),
      }),
  };
}
