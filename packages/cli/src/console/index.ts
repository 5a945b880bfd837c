/** The app console: a REPL with the app loaded. */
export { consoleCommand } from "./console-command.js";
export { consoleContext } from "./console-context.js";
export { CONSOLE_HISTORY_FILE, startConsole, type ConsoleOptions } from "./start-console.js";
