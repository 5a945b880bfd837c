/**
 * A plain `start` line read without the full command line: the options of `start` and the reader
 * of a line that uses only them. Kept apart from the server: the executable reads the line before
 * it knows whether the app's server bundle or the command line's own modules serve it.
 */
import { resolve } from "node:path";

/** The arguments of `start` once read: the app, and the server's own options. */
export interface StartArgs {
  readonly root: string;
  readonly app?: string;
  readonly workers?: number;
  readonly port: number;
  readonly host: string;
  readonly jobWorkers?: number;
}

/** An option of `start`: its type, its default from the environment, and its help text. */
export interface StartOption {
  readonly type: "number" | "string";
  readonly describe: string;
  /** The default, read from the environment when the command line is read; none when undefined. */
  readonly fallback: (env: NodeJS.ProcessEnv) => number | string | undefined;
}

/** The options of `start` (besides `--root` and `--app`), for yargs' builder and {@link plainStartLine} alike. */
export const START_OPTIONS: Readonly<Record<"workers" | "port" | "host" | "job-workers", StartOption>> = {
  workers: {
    type: "number",
    describe: "worker processes (WEB_CONCURRENCY; default: the number of CPUs; 1 runs without cluster)",
    fallback: (env) => (env["WEB_CONCURRENCY"] ? Number(env["WEB_CONCURRENCY"]) : undefined),
  },
  port: {
    type: "number",
    describe: "port to listen on (PORT)",
    fallback: (env) => Number(env["PORT"] ?? 5000),
  },
  host: {
    type: "string",
    describe: "address to listen on (HOST)",
    fallback: (env) => env["HOST"] ?? "0.0.0.0",
  },
  "job-workers": {
    type: "number",
    describe:
      "jobs each worker process also runs at once, besides requests (JOB_WORKERS; default 0: jobs are left to jobs:work processes)",
    fallback: () => undefined,
  },
};

const WHOLE_NUMBER = /^\d{1,9}$/;

/**
 * The arguments of a plain `start` line, read without the full command line: `start` followed only
 * by `--root`, `--app` and `start`'s own options, each at most once, as `--name value` or
 * `--name=value`, numbers written as whole numbers. Anything else (help, a misspelt or repeated
 * option, another spelling yargs also reads) is `undefined`: the full command line then reads it,
 * with its messages. Loading yargs, every other command and the generators is about a third of
 * what `start` takes to serve its first request.
 */
export function plainStartLine(
  argv: readonly string[],
  command = "start",
  env: NodeJS.ProcessEnv = process.env,
): StartArgs | undefined {
  if (argv[0] !== command) return undefined;
  const given = new Map<string, string>();
  for (let i = 1; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith("--")) return undefined;
    const equals = token.indexOf("=");
    const name = equals < 0 ? token.slice(2) : token.slice(2, equals);
    const value = equals < 0 ? argv[++i] : token.slice(equals + 1);
    const option =
      name === "root" || name === "app" ? "string" : START_OPTIONS[name as keyof typeof START_OPTIONS]?.type;
    if (option === undefined || value === undefined || given.has(name)) return undefined;
    if (option === "number" ? !WHOLE_NUMBER.test(value) : value === "" || value.startsWith("-")) return undefined;
    given.set(name, value);
  }
  const read = (name: keyof typeof START_OPTIONS) => {
    const value = given.get(name);
    if (value !== undefined) return START_OPTIONS[name].type === "number" ? Number(value) : value;
    return START_OPTIONS[name].fallback(env);
  };
  const workers = read("workers") as number | undefined;
  const jobWorkers = read("job-workers") as number | undefined;
  const app = given.get("app");
  return {
    root: resolve(given.get("root") ?? process.cwd()),
    ...(app ? { app } : {}),
    ...(workers !== undefined ? { workers } : {}),
    port: read("port") as number,
    host: read("host") as string,
    ...(jobWorkers !== undefined ? { jobWorkers } : {}),
  };
}
