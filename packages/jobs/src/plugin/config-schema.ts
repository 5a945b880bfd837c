/**
 * The jobs battery's config keys, declared once: the app-facing type (`JobsAppConfig`, added to
 * `AppConfig` of `@fwkit/koa-host` by module augmentation), the start-up check of unknown keys, the
 * defaults, the reading of environment strings and the rows of docs/configuration.md follow from it.
 * The queue's tuning keys are the queue's own table (`QUEUE_KEYS`, queue-options.ts); `queueUrl`
 * (`QUEUE_URL`) is the host's key, typed there; config.ts adds the rules that join keys.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import { isPlainObject } from "@fwkit/koa-host/plugin";
import { defineConfigSchema, type InputOf, key } from "@fwkit/koa-host/config-schema";
import type { Context } from "koa";
import { E_JOB_OPTION_INVALID } from "../errors.js";
import { durationKey, QUEUE_KEYS } from "../queue-options.js";

/** The jobs dashboard's block (`jobs.dashboard`). */
export interface JobsDashboardConfig {
  /** Where it is served (default `"/jobs"`). */
  readonly path?: string;
  /** Serve it in production too (default false); production also needs `guard`. */
  readonly production?: boolean;
  /** Who may see it (in production, only admins): true lets the request through, false answers 403. */
  readonly guard?: (ctx: Context) => boolean | Promise<boolean>;
  /** Hide the buttons that retry, remove or promote jobs. */
  readonly readOnly?: boolean;
  /** Allow adding jobs and editing job data from the dashboard (default: in development only). */
  readonly edit?: boolean;
  /** The dashboard's title. */
  readonly title?: string;
}

/** The jobs battery's keys. */
export const jobsConfigSchema = defineConfigSchema(
  {
    jobs: key.block(
      {
        folder: key.string({
          doc: "Folder the job modules are found in, under the app folder.",
          default: "jobs",
          pattern: /^(?!.*\.\.).+$/,
          expected: "a folder under the app folder",
        }),
        workers: key.int({
          doc: "Jobs a web process runs at once besides requests (`start --job-workers N`); 0 leaves a Redis queue's jobs to `jobs:work` (the in-process queues always run theirs here).",
          default: 0,
          min: 0,
          env: "JOB_WORKERS",
        }),
        grace: durationKey("How long a running job may go on at shutdown before it is left to be retried.", "30s"),
        ...QUEUE_KEYS,
        fake: key.bool({
          doc: "Record dispatches instead of queuing them, for the test client (`client.jobs`).",
          default: (root) => root["env"] === "test",
          defaultText: "true in `test`",
        }),
        dashboard: key.custom<false | JobsDashboardConfig, false | JobsDashboardConfig | undefined>({
          doc: "The dashboard (bull-board, on a Redis queue): `{ path, production, guard, readOnly, edit, title }`; `false` turns it off in development too.",
          kind: "false or a block",
          read: (value, context) =>
            value === false || isPlainObject(value)
              ? (value as false | JobsDashboardConfig)
              : context.invalid(
                  context.path,
                  "false or a block { path, production, guard, readOnly, edit, title }",
                  value,
                ),
        }),
      },
      { doc: "The jobs battery." },
    ),
  },
  {
    invalid: (path, expected, value) => new E_JOB_OPTION_INVALID("config", path, expected, value),
    alsoReads: ["queueUrl"],
  },
);

/** The config keys the jobs battery reads, as an app writes them (see docs/jobs.md). */
export type JobsAppConfig = InputOf<typeof jobsConfigSchema>;

/** The `jobs` block of an app's config. */
export type JobsConfigBlock = NonNullable<JobsAppConfig["jobs"]>;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends JobsAppConfig {}
}
