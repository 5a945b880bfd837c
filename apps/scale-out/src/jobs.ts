// Jobs across nodes: the scaffolded fw-b app gains a job that records each run in PostgreSQL
// (job_runs), a schedule every 3 s, and a view that dispatches jobs; two `start` nodes dispatch,
// two `:work` processes run them, all on one Redis (QUEUE_URL). What the jobs test and the jobs
// phase of `pnpm test:cluster` share.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliArgs, FW_B, type Framework } from "./apps.js";
import { launch, type Proc } from "./processes.js";

const JOBS = `import { Job } from "fw-b";
import { JobRun } from "../lib/models.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records one run of key (a row per run: a job run twice shows as two rows). */
export class CountRun extends Job<{ key: string; ms?: number }> {
  static override options = { attempts: 5, backoff: "1s" };
  async handle({ key, ms }: { key: string; ms?: number }) {
    if (ms) await sleep(ms);
    await JobRun.query().insert({ key, pid: process.pid });
  }
}

/** Every 3 s, on whichever worker takes the tick: one row per tick. */
export class Tick extends Job {
  static override options = { schedule: { every: "3s" } };
  async handle(_payload: unknown, context: { id: string }) {
    await JobRun.query().insert({ key: \`tick:\${context.id}\`, pid: process.pid });
  }
}
`;

const MIGRATION = `import type { Knex } from "fw-b";

/** One row per job run (the scale-out tests count them). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("job_runs", (table) => {
    table.increments("id");
    table.string("key", 200).notNullable().index();
    table.integer("pid").notNullable();
    table.timestamp("ran_at").notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("job_runs");
}
`;

const MODEL = `
/** A run of a scale-out job. */
export interface JobRunRow { id: number; key: string; pid: number; ran_at: Date }
export const JobRun = defineModel<JobRunRow>("job_runs");
`;

const VIEW = `import { FwB } from "fw-b";
import { renderJson } from "fw-b/decorators";
import { CountRun } from "../jobs/count.js";

/** Dispatches count CountRun jobs keyed prefix-0, prefix-1...; each runs ms long. */
@renderJson
export class Dispatch extends FwB {
  async index(prefix: string, count = "1", ms = "0") {
    const started = Date.now();
    for (let i = 0; i < Number(count); i++) await CountRun.dispatch({ key: \`\${prefix}-\${i}\`, ms: Number(ms) });
    return { dispatched: Number(count), ms: Date.now() - started, node: process.env["NODE_NAME"] ?? "" };
  }
}
`;

/** Adds the job, its table, the schedule and the dispatching view to a scaffolded fw-b app (before its build). */
export function addJobs(root: string): void {
  mkdirSync(join(root, "jobs"), { recursive: true });
  writeFileSync(join(root, "jobs", "count.ts"), JOBS);
  writeFileSync(join(root, "migrations", "20990101000001_job_runs.ts"), MIGRATION);
  appendFileSync(join(root, "lib", "models.ts"), MODEL);
  writeFileSync(join(root, "views", "dispatch.ts"), VIEW);
  const config = join(root, "lib", "config.ts");
  const text = readFileSync(config, "utf8");
  const anchor = "export const config = defineConfig({";
  if (!text.includes(anchor)) assert.fail(`${config} has no ${anchor}`);
  writeFileSync(config, text.replace(anchor, `${anchor}\n  ${JOBS_CONFIG}`));
}

/** The queue settings the tests use: a worker that died is noticed within seconds, not a minute. */
export const JOBS_CONFIG = `jobs: { lockDuration: "4s", stalledInterval: "2s", grace: "5s" },`;

/** Starts a `:work` process (concurrency per queue); resolves once it works. */
export async function startWorker(
  root: string,
  env: Record<string, string>,
  name: string,
  concurrency = 10,
  framework: Framework = FW_B,
): Promise<Proc> {
  const proc = launch(
    process.execPath,
    cliArgs(framework, [":work", "--concurrency", String(concurrency), "--root", root]),
    {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: "", ...env, NODE_NAME: name },
    },
  );
  await proc.waitFor(/Working the queues/, `${name} working`);
  return proc;
}

/** Runs one SQL query on the run's database and answers its rows (tab-separated fields). */
export function sql(dbUrl: string, query: string): string[][] {
  const result = spawnSync("psql", [dbUrl, "-tA", "-F", "\t", "-c", query], { encoding: "utf8" });
  if (result.status !== 0) assert.fail(`psql failed (${query}): ${result.stderr}`);
  return result.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t"));
}

/** Rows and distinct keys of job_runs whose key starts with `prefix`. */
export function runsOf(dbUrl: string, prefix: string): { rows: number; keys: number; duplicates: string[] } {
  const like = `${prefix.replace(/'/g, "''")}%`;
  const [[rows, keys]] = sql(dbUrl, `select count(*), count(distinct key) from job_runs where key like '${like}'`) as [
    [string, string],
  ];
  const duplicates = sql(
    dbUrl,
    `select key from job_runs where key like '${like}' group by key having count(*) > 1`,
  ).map(([key]) => key!);
  return { rows: Number(rows), keys: Number(keys), duplicates };
}
