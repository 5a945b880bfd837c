// "List with relations": 100 tasks, each with its project and its two assignees, read through the
// models' preloads (fw-a re-exports @fwkit/data) against the same list written by hand with knex (a
// join for the project, one query for the assignees, grouped in JavaScript). Both run on the
// machine's PostgreSQL, in alternating blocks, and the report gives the median time of one list.
//   node dist/relations-bench.js [lists per block = 50] [blocks = 20]
import { belongsTo, defineModel, manyToMany, type BaseRow } from "fw-a";
import knexFactory, { type Knex } from "knex";
import { DB_TARGETS } from "./servers/db-fixture.js";

const PREFIX = `bench_rel_${process.pid}`;
const T = {
  users: `${PREFIX}_users`,
  projects: `${PREFIX}_projects`,
  tasks: `${PREFIX}_tasks`,
  pivot: `${PREFIX}_task_assignees`,
};

interface UserRow extends BaseRow {
  id: number;
  name: string;
}
interface ProjectRow extends BaseRow {
  id: number;
  name: string;
}
interface TaskRow extends BaseRow {
  id: number;
  title: string;
  project_id: number;
}

const User = defineModel<UserRow>(T.users);
const Project = defineModel<ProjectRow>(T.projects);
const Task = defineModel<TaskRow>(T.tasks).relations({
  project: () => belongsTo(Project),
  assignees: () => manyToMany(User, { pivot: T.pivot, foreignPivotKey: "task_id", relatedPivotKey: "user_id" }),
});

async function createTables(db: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => t.timestamps(true, true);
  await db.schema.createTable(T.users, (t) => {
    t.increments("id");
    t.string("name").notNullable();
    stamps(t);
  });
  await db.schema.createTable(T.projects, (t) => {
    t.increments("id");
    t.string("name").notNullable();
    stamps(t);
  });
  await db.schema.createTable(T.tasks, (t) => {
    t.increments("id");
    t.string("title").notNullable();
    t.integer("project_id").notNullable().references("id").inTable(T.projects).index();
    stamps(t);
  });
  await db.schema.createTable(T.pivot, (t) => {
    t.integer("task_id").notNullable().references("id").inTable(T.tasks).onDelete("CASCADE");
    t.integer("user_id").notNullable().references("id").inTable(T.users).onDelete("CASCADE");
    t.primary(["task_id", "user_id"]);
  });
  const users = await db(T.users)
    .insert(Array.from({ length: 5 }, (_, i) => ({ name: `User ${i}` })))
    .returning("id");
  const projects = await db(T.projects)
    .insert(Array.from({ length: 10 }, (_, i) => ({ name: `Project ${i}` })))
    .returning("id");
  const tasks = await db(T.tasks)
    .insert(Array.from({ length: 100 }, (_, i) => ({ title: `Task ${i}`, project_id: projects[i % 10].id })))
    .returning("id");
  await db(T.pivot).insert(
    tasks.flatMap(({ id }: { id: number }, i: number) => [
      { task_id: id, user_id: users[i % 5].id },
      { task_id: id, user_id: users[(i + 1) % 5].id },
    ]),
  );
}

/** The list through the models: one query per relation, rows hydrated (dates as Date objects). */
const viaModels = () => Task.preload("project").preload("assignees");

/** The list by hand: a join for the project, one query for the assignees, grouped by task. */
async function viaKnex(db: Knex) {
  const rows = await db(T.tasks)
    .join(T.projects, `${T.projects}.id`, `${T.tasks}.project_id`)
    .select(`${T.tasks}.*`, `${T.projects}.name as project_name`, `${T.projects}.id as project_key`)
    .orderBy(`${T.tasks}.id`);
  const assignees = await db(T.users)
    .join(T.pivot, `${T.pivot}.user_id`, `${T.users}.id`)
    .whereIn(
      `${T.pivot}.task_id`,
      rows.map((r: { id: number }) => r.id),
    )
    .select(`${T.users}.*`, `${T.pivot}.task_id`);
  const byTask = new Map<number, unknown[]>();
  for (const a of assignees) byTask.set(a.task_id, [...(byTask.get(a.task_id) ?? []), a]);
  return rows.map((r: Record<string, unknown>) => ({
    ...r,
    project: { id: r["project_key"], name: r["project_name"] },
    assignees: byTask.get(r["id"] as number) ?? [],
  }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const perBlock = Number(process.argv[2] ?? 50);
  const blocks = Number(process.argv[3] ?? 20);
  const db = knexFactory({ client: "pg", connection: DB_TARGETS.dbUrl, pool: { min: 1, max: 1 } });
  try {
    await createTables(db);
    for (const model of [User, Project, Task]) model.bind(db);
    const checkModels = await viaModels();
    const checkKnex = await viaKnex(db);
    if (checkModels.length !== 100 || checkKnex.length !== 100 || checkModels.some((t) => t.assignees.length !== 2))
      throw new Error("the two lists differ from 100 tasks with two assignees each");
    const times = { models: [] as number[], knex: [] as number[] };
    for (let block = 0; block < blocks; block++) {
      for (const [name, run] of [
        ["models", () => viaModels()],
        ["knex", () => viaKnex(db)],
      ] as const) {
        const start = process.hrtime.bigint();
        for (let i = 0; i < perBlock; i++) await run();
        times[name].push(Number(process.hrtime.bigint() - start) / 1e6 / perBlock);
      }
    }
    const models = median(times.models);
    const knex = median(times.knex);
    console.log(
      `list with relations (100 tasks, project + 2 assignees each), PostgreSQL, median of ${blocks} blocks of ${perBlock}:`,
    );
    console.log(`  models (Task.preload("project").preload("assignees")): ${models.toFixed(3)} ms per list, 3 queries`);
    console.log(`  hand-written knex (join + assignees query):           ${knex.toFixed(3)} ms per list, 2 queries`);
    console.log(`  models / knex: ${(models / knex).toFixed(2)}x`);
  } finally {
    for (const table of [T.pivot, T.tasks, T.projects, T.users]) await db.schema.dropTableIfExists(table);
    await db.destroy();
  }
}

await main();
