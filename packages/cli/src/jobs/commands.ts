/**
 * The job commands of both frameworks, written once; each framework names them its own way (fw-a
 * `jobs:work`, `jobs:failed`...; fw-b `:work`, `:failed`...). They build the app (its jobs
 * battery makes the queue from `QUEUE_URL`) and act on its queue: run a worker until SIGTERM, list,
 * retry and clear failed jobs, list the schedules, dispatch a job by name.
 */
import type { Host } from "@fwkit/koa-host";
import { E_JOB_UNKNOWN, jobsOf, runWorker, type JobQueue } from "@fwkit/jobs";
import type { CommandModule } from "yargs";
import { appOf, withApp, type AppArgs } from "../app-args.js";
import { locateApp } from "../production/start.js";
import { E_COMMAND_OPTION } from "../errors.js";
import { printFailed, printSchedules } from "./output.js";

/** A framework's names of the job commands. */
export interface JobsCommandNames {
  readonly work: string;
  readonly failed: string;
  readonly retry: string;
  readonly clear: string;
  readonly schedule: string;
  readonly dispatch: string;
}

type QueueArgs = AppArgs & { queue?: string[] };

/**
 * In production the commands load the app `start` serves (the `current` release, else `build/`),
 * so a worker runs the same code as the web processes; elsewhere the app folder's sources.
 */
function servedApp<A extends AppArgs>(args: A): A {
  if (process.env["APP_ENV"] !== "production") return args;
  return { ...args, root: locateApp(appOf(args).root).appRoot };
}

// The commands act on the real queue: no test fake, and no in-process worker of the battery's own.
const OVERRIDES = { config: { jobs: { workers: 0, fake: false } } } as const;

/**
 * The app's queue, or a coded error: the battery is off, or the queue lives in another process's
 * memory (`memory:`, `sync:`), where a separate command cannot reach it.
 */
function redisQueue(app: Host, command: string): JobQueue {
  const queue = jobsOf(app)?.queue;
  if (!queue) throw new E_COMMAND_OPTION(`${command}: batteries.jobs`, "on (the jobs battery makes the queue)", false);
  if (queue.kind !== "bullmq") {
    throw new E_COMMAND_OPTION(
      `${command}: QUEUE_URL`,
      "a redis:// URL (memory: and sync: queues live inside the web process, which runs their jobs itself)",
      `${queue.kind}:`,
    );
  }
  return queue;
}

/** `--queue a --queue b` or `--queue a,b`, each a queue the app's jobs use. */
function queuesOf(args: QueueArgs, queue: JobQueue): string[] | undefined {
  const given = (args.queue ?? [])
    .flatMap((value) => String(value).split(","))
    .map((name) => name.trim())
    .filter(Boolean);
  if (given.length === 0) return undefined;
  const known = queue.queueNames();
  for (const name of given)
    if (!known.includes(name))
      throw new E_JOB_UNKNOWN(
        `queue ${name}`,
        known.map((other) => `queue ${other}`),
      );
  return given;
}

const queueOption = {
  type: "string",
  array: true,
  describe: "a queue to act on (repeatable, or a,b; default: every queue the app's jobs use)",
} as const;

/** The worker: `--queue`, `--concurrency` (jobs at once per queue), `--grace` (seconds a running job gets at SIGTERM). */
function workCommand(command: string): CommandModule<QueueArgs, QueueArgs & { concurrency: number; grace: number }> {
  return {
    command,
    describe: "run a job worker until SIGTERM: takes jobs, runs the schedules, retries failures with backoff",
    builder: (y) =>
      y
        .option("queue", queueOption)
        .option("concurrency", { type: "number", default: 1, describe: "jobs run at once per queue" })
        .option("grace", {
          type: "number",
          default: 30,
          describe: "seconds a running job may finish in at SIGTERM before it is left to be retried",
        }) as never,
    async handler(args) {
      if (!Number.isInteger(args.concurrency) || args.concurrency < 1 || args.concurrency > 1000)
        throw new E_COMMAND_OPTION("--concurrency", "a whole number from 1 to 1000", args.concurrency);
      if (!Number.isFinite(args.grace) || args.grace < 0)
        throw new E_COMMAND_OPTION("--grace", "a number of seconds, 0 or more", args.grace);
      await withApp(
        servedApp(args),
        async (app) => {
          const queue = redisQueue(app, command);
          const queues = queuesOf(args, queue) ?? queue.queueNames();
          const worker = await runWorker(queue, { queues, concurrency: args.concurrency, grace: args.grace * 1000 });
          console.log(
            `Working the queues ${queues.join(", ")} (concurrency ${args.concurrency}, pid ${process.pid}); SIGTERM stops after the running jobs`,
          );
          const stopped = await worker.stopped;
          console.log(
            stopped.forced
              ? `Stopped (${stopped.signal ?? "stop"}): the grace ran out, the running jobs will be retried by another worker`
              : `Stopped (${stopped.signal ?? "stop"}) after the running jobs finished`,
          );
        },
        { config: { ...OVERRIDES.config, logLevel: "info" } },
        // Its metrics on a port of its own (METRICS_WORKER_PORT), beside start's.
        "worker",
      );
    },
  };
}

/** The failed jobs, newest first: `--queue`, `--limit`, `--json`. */
function failedCommand(
  command: string,
  retry: string,
): CommandModule<QueueArgs, QueueArgs & { limit: number; json: boolean }> {
  return {
    command,
    describe: "list the failed jobs (newest first) with their errors",
    builder: (y) =>
      y
        .option("queue", queueOption)
        .option("limit", { type: "number", default: 50, describe: "at most this many" })
        .option("json", { type: "boolean", default: false, describe: "print JSON" }) as never,
    async handler(args) {
      if (!Number.isInteger(args.limit) || args.limit < 1)
        throw new E_COMMAND_OPTION("--limit", "a whole number of 1 or more", args.limit);
      await withApp(
        servedApp(args),
        async (app) => {
          const queue = redisQueue(app, command);
          const queues = queuesOf(args, queue);
          printFailed(await queue.failed({ ...(queues ? { queues } : {}), limit: args.limit }), args.json, retry);
        },
        OVERRIDES,
      );
    },
  };
}

/** Queues failed jobs again: one by its id (`queue:id`), or `--all`. */
function retryCommand(command: string): CommandModule<QueueArgs, QueueArgs & { id?: string; all: boolean }> {
  return {
    command: `${command} [id]`,
    describe: "queue a failed job again (its id from the failed list), or every failed job with --all",
    builder: (y) =>
      y
        .positional("id", { type: "string", describe: "the failed job's id (queue:id)" })
        .option("all", { type: "boolean", default: false, describe: "every failed job" })
        .option("queue", queueOption) as never,
    async handler(args) {
      if (args.all === (args.id !== undefined))
        throw new E_COMMAND_OPTION(
          command,
          "given a failed job's id or --all (one of them)",
          args.all ? `--all and ${args.id}` : "neither",
        );
      await withApp(
        servedApp(args),
        async (app) => {
          const queue = redisQueue(app, command);
          if (args.id !== undefined) {
            await queue.retry(String(args.id));
            console.log(`Queued ${args.id} again`);
            return;
          }
          const queues = queuesOf(args, queue);
          console.log(`Queued ${await queue.retryAll(queues ? { queues } : {})} failed job(s) again`);
        },
        OVERRIDES,
      );
    },
  };
}

/** Removes the failed jobs (`--queue` to limit). */
function clearCommand(command: string): CommandModule<QueueArgs, QueueArgs> {
  return {
    command,
    describe: "remove the failed jobs",
    builder: (y) => y.option("queue", queueOption) as never,
    async handler(args) {
      await withApp(
        servedApp(args),
        async (app) => {
          const queue = redisQueue(app, command);
          const queues = queuesOf(args, queue);
          console.log(`Removed ${await queue.clearFailed(queues ? { queues } : {})} failed job(s)`);
        },
        OVERRIDES,
      );
    },
  };
}

/** The schedules of the app's jobs and their next runs (`--json`). */
function scheduleCommand(command: string): CommandModule<AppArgs, AppArgs & { json: boolean }> {
  return {
    command,
    describe: "list the scheduled jobs and when each runs next",
    builder: (y) => y.option("json", { type: "boolean", default: false, describe: "print JSON" }) as never,
    async handler(args) {
      await withApp(
        servedApp(args),
        async (app) => {
          const queue = jobsOf(app)?.queue;
          if (!queue)
            throw new E_COMMAND_OPTION(`${command}: batteries.jobs`, "on (the jobs battery makes the queue)", false);
          // What the workers will run: the registered jobs' schedules (workers upsert them too). A
          // memory: queue's are the same jobs' own, run by the web process (npm run dev).
          await queue.syncSchedules();
          printSchedules(await queue.listSchedules(), args.json);
          if (queue.kind !== "bullmq" && !args.json)
            console.log(`(QUEUE_URL is a ${queue.kind}: queue: the web process runs these itself, no worker needed)`);
        },
        OVERRIDES,
      );
    },
  };
}

/** Dispatches a job by its name with a JSON payload (`--payload '{"userId":1}'`, `--delay 30`). */
function dispatchCommand(
  command: string,
): CommandModule<AppArgs, AppArgs & { name: string; payload: string; delay?: number }> {
  return {
    command: `${command} <name>`,
    describe: "dispatch one of the app's jobs by name, with a JSON payload checked by its schema",
    builder: (y) =>
      y
        .positional("name", { type: "string", demandOption: true, describe: "the job's name" })
        .option("payload", { type: "string", default: "{}", describe: "the payload as JSON" })
        .option("delay", { type: "number", describe: "seconds to wait before it runs" }) as never,
    async handler(args) {
      let payload: unknown;
      try {
        payload = JSON.parse(args.payload);
      } catch {
        throw new E_COMMAND_OPTION("--payload", "JSON, such as '{\"userId\": 1}'", args.payload);
      }
      if (args.delay !== undefined && (!Number.isFinite(args.delay) || args.delay < 0))
        throw new E_COMMAND_OPTION("--delay", "a number of seconds, 0 or more", args.delay);
      await withApp(
        servedApp(args),
        async (app) => {
          const queue = redisQueue(app, command);
          const job = await queue.dispatchByName(
            String(args.name),
            payload,
            args.delay === undefined ? {} : { delay: args.delay * 1000 },
          );
          console.log(`Dispatched ${job.name} to the queue ${job.queue} (id ${job.id})`);
        },
        OVERRIDES,
      );
    },
  };
}

/** The six job commands under a framework's names. */
export function jobsCommands(names: JobsCommandNames): CommandModule[] {
  return [
    workCommand(names.work),
    failedCommand(names.failed, names.retry),
    retryCommand(names.retry),
    clearCommand(names.clear),
    scheduleCommand(names.schedule),
    dispatchCommand(names.dispatch),
  ] as unknown as CommandModule[];
}
