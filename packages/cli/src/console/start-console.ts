/**
 * The REPL of an app (`fw-a console`, `fw-b :console`) on node:repl: the app built as it serves
 * (its config, database, services) without listening, its models and services in scope, top-level
 * `await`, history kept in the app folder, completion of every name in scope (models included).
 */
import { join } from "node:path";
import { start, type REPLServer } from "node:repl";
import type { Host } from "@fwkit/koa-host";
import { completeAfterAwait } from "./await-completer.js";
import { consoleContext } from "./console-context.js";

/** The history file of an app's console, in the app folder (the scaffold's .gitignore lists it). */
export const CONSOLE_HISTORY_FILE = ".console_history";

/** Options of {@link startConsole}. */
export interface ConsoleOptions {
  /** The app, built and not listening. */
  readonly host: Host;
  /** The framework's command name, for the banner and the prompt (`fw-a`). */
  readonly framework: string;
  /** Where history is kept; default `<app root>/.console_history`. */
  readonly historyFile?: string;
  /** Default process.stdin / process.stdout. */
  readonly input?: NodeJS.ReadableStream;
  readonly output?: NodeJS.WritableStream;
}

function setupHistory(server: REPLServer, file: string): Promise<void> {
  return new Promise((resolve) => {
    // A history that cannot be written (a read-only app folder) must not stop the console.
    server.setupHistory(file, (error) => {
      if (error) server.output.write(`(history not kept: ${error.message})\n`);
      resolve();
    });
  });
}

/**
 * Opens the console on `host` and resolves when the user leaves it (`.exit`, Ctrl+D or the end of
 * the input); the app is closed then (its database connections and services released).
 */
export async function startConsole(options: ConsoleOptions): Promise<void> {
  const { host, framework } = options;
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const { variables, models } = consoleContext(host);
  const env = host.config.env;
  const extras = ["config", "urlFor", ...["knex", "mail", "storage", "cache"].filter((name) => name in variables)];
  output.write(
    `${framework} console, ${env} environment (${host.config.root})\n` +
      `Models: ${models.length > 0 ? models.join(", ") : "none (declare them in lib/models.ts)"}\n` +
      `Also in scope: ${extras.join(", ")}, app. Top-level await works; .exit or Ctrl+D leaves.\n`,
  );
  const terminal = (output as { isTTY?: boolean }).isTTY === true;
  const server = start({
    prompt: `${framework}(${env})> `,
    input,
    output,
    terminal,
    useGlobal: false,
    ignoreUndefined: true,
    breakEvalOnSigint: terminal,
  });
  completeAfterAwait(server);
  const closed = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  for (const [name, value] of Object.entries(variables)) {
    Object.defineProperty(server.context, name, { value, enumerable: true, configurable: true, writable: true });
  }
  await setupHistory(server, options.historyFile ?? join(host.config.root, CONSOLE_HISTORY_FILE));
  await closed;
  await host.close();
}
