/**
 * The console command both CLIs add under their own name (fw-a `console`, fw-b `:console`):
 * `--env` picks the environment (else APP_ENV, else production when NODE_ENV is, else development);
 * in production it asks before building the app, since what is typed changes real data, unless
 * `--yes`; a console never opens the metrics port.
 */
import { createInterface } from "node:readline/promises";
import { resolve } from "node:path";
import type { CommandModule } from "yargs";
import { loadConfig } from "@fwkit/koa-host";
import { loadAppDefinition } from "@fwkit/koa-host/operations";
import { inRole } from "../app-args.js";
import { startConsole } from "./start-console.js";

type ConsoleArgs = { root?: unknown; app?: unknown; env?: string; yes: boolean };

/** Asks on the terminal (or the first input line) whether to open a production console. */
async function confirmProduction(framework: string, root: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdout.isTTY === true });
  try {
    const ended = new Promise<string>((done) => rl.once("close", () => done("")));
    const answer = await Promise.race([
      rl.question(`${framework} console in PRODUCTION (${root}): what you run changes real data. Open it? [y/N] `),
      ended,
    ]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** The console command under a framework's name (`framework`: the CLI's name, for prompts and messages). */
export function consoleCommand(
  command: string,
  framework: string,
): CommandModule<Record<string, unknown>, ConsoleArgs> {
  return {
    command,
    describe:
      "open a REPL with the app loaded: models, config, services, urlFor (--env production asks first; --yes does not)",
    builder: (y) =>
      y
        .option("env", {
          type: "string",
          describe:
            "the environment to load (default: APP_ENV, else production when NODE_ENV=production, else development)",
        })
        .option("yes", {
          type: "boolean",
          default: false,
          describe: "open a production console without asking",
        }) as never,
    async handler(args) {
      if (args.env !== undefined) process.env["APP_ENV"] = args.env;
      const root = resolve(String(args.root ?? process.cwd()));
      const definition = await loadAppDefinition(root, args.app ? String(args.app) : undefined);
      // The environment first, the app after the answer: a refused console connects to nothing.
      const { env } = await loadConfig(definition.root);
      if (env === "production" && !args.yes && !(await confirmProduction(framework, root))) {
        console.log("Console not opened.");
        return;
      }
      // A console opens no metrics port: start (or a worker) holds it.
      const host = await inRole("command", () => definition.create({ config: { logRequests: false } }));
      await startConsole({ host, framework });
    },
  };
}
