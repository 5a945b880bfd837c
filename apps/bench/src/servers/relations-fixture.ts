/**
 * The "list with relations" workloads: 100 tasks, each with its project and its two assignees,
 * read through the models' preloads (one query per relation) and, as the baseline, written by
 * hand with knex (a join for the project, one query for the assignees, grouped in JavaScript).
 * Both answer the same JSON; the tables hold fixed ids so every server's answer can be checked.
 */
import type { Knex } from "knex";
import type { BaseRow, belongsTo as BelongsTo, defineModel as DefineModel, manyToMany as ManyToMany } from "fw-a";

/** The tables of the relations workloads (PostgreSQL, beside the db workload's table). */
export const REL_TABLES = Object.freeze({
  users: "bench_rel_users",
  projects: "bench_rel_projects",
  tasks: "bench_rel_tasks",
  pivot: "bench_rel_task_assignees",
});

const TASKS = 100;
const PROJECTS = 10;
const USERS = 5;

/** One task of the answer. */
export interface ListedTask {
  readonly id: number;
  readonly title: string;
  readonly project: { readonly id: number; readonly name: string } | null;
  readonly assignees: readonly { readonly id: number; readonly name: string }[];
}

const projectOf = (task: number) => ((task - 1) % PROJECTS) + 1;
const assigneesOf = (task: number) => [((task - 1) % USERS) + 1, (task % USERS) + 1].sort((a, b) => a - b);

/** The answer both routes give: `{ tasks }` by id, each task's assignees by id. */
export const EXPECTED_TASKS: readonly ListedTask[] = Object.freeze(
  Array.from({ length: TASKS }, (_, i) => {
    const id = i + 1;
    return {
      id,
      title: `Task ${id}`,
      project: { id: projectOf(id), name: `Project ${projectOf(id)}` },
      assignees: assigneesOf(id).map((user) => ({ id: user, name: `User ${user}` })),
    };
  }),
);

/**
 * Creates the tables and their rows when absent. Servers of one scenario start together, so the
 * work runs under a transaction-scoped advisory lock: the second waits, then finds the rows there.
 */
export async function prepareRelationTables(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(?)", [0x6265_6e63]);
    const t = REL_TABLES;
    if (!(await trx.schema.hasTable(t.pivot))) {
      await trx.schema.createTable(t.users, (table) => {
        table.integer("id").primary();
        table.text("name").notNullable();
        table.timestamps(true, true);
      });
      await trx.schema.createTable(t.projects, (table) => {
        table.integer("id").primary();
        table.text("name").notNullable();
        table.timestamps(true, true);
      });
      await trx.schema.createTable(t.tasks, (table) => {
        table.integer("id").primary();
        table.text("title").notNullable();
        table.integer("project_id").notNullable().references("id").inTable(t.projects).index();
        table.timestamps(true, true);
      });
      await trx.schema.createTable(t.pivot, (table) => {
        table.integer("task_id").notNullable().references("id").inTable(t.tasks).onDelete("CASCADE");
        table.integer("user_id").notNullable().references("id").inTable(t.users).onDelete("CASCADE");
        table.primary(["task_id", "user_id"]);
      });
    }
    const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    await trx(t.users)
      .insert(range(USERS).map((id) => ({ id, name: `User ${id}` })))
      .onConflict("id")
      .ignore();
    await trx(t.projects)
      .insert(range(PROJECTS).map((id) => ({ id, name: `Project ${id}` })))
      .onConflict("id")
      .ignore();
    await trx(t.tasks)
      .insert(range(TASKS).map((id) => ({ id, title: `Task ${id}`, project_id: projectOf(id) })))
      .onConflict("id")
      .ignore();
    await trx(t.pivot)
      .insert(range(TASKS).flatMap((task_id) => assigneesOf(task_id).map((user_id) => ({ task_id, user_id }))))
      .onConflict(["task_id", "user_id"])
      .ignore();
  });
}

/** The list written by hand with knex: tasks joined to their projects, then the assignees of those tasks. */
export async function listByHand(db: Knex): Promise<ListedTask[]> {
  const t = REL_TABLES;
  const rows = (await db(t.tasks)
    .join(t.projects, `${t.projects}.id`, `${t.tasks}.project_id`)
    .select(`${t.tasks}.id`, `${t.tasks}.title`, `${t.projects}.id as project_id`, `${t.projects}.name as project_name`)
    .orderBy(`${t.tasks}.id`)) as { id: number; title: string; project_id: number; project_name: string }[];
  const people = (await db(t.pivot)
    .join(t.users, `${t.users}.id`, `${t.pivot}.user_id`)
    .whereIn(
      `${t.pivot}.task_id`,
      rows.map((row) => row.id),
    )
    .select(`${t.pivot}.task_id`, `${t.users}.id`, `${t.users}.name`)
    .orderBy([`${t.pivot}.task_id`, `${t.users}.id`])) as { task_id: number; id: number; name: string }[];
  const byTask = new Map<number, { id: number; name: string }[]>();
  for (const { task_id, id, name } of people) {
    const list = byTask.get(task_id);
    if (list) list.push({ id, name });
    else byTask.set(task_id, [{ id, name }]);
  }
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    project: { id: row.project_id, name: row.project_name },
    assignees: byTask.get(row.id) ?? [],
  }));
}

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

/** What a framework re-exports from its data layer that the models need. */
export interface DataApi {
  readonly defineModel: typeof DefineModel;
  readonly belongsTo: typeof BelongsTo;
  readonly manyToMany: typeof ManyToMany;
}

/**
 * The list through a framework's models (`Task.preload("project").preload("assignees")`, three
 * queries), bound on first use to the data battery's knex.
 */
export function listThroughModels(data: DataApi): (db: Knex) => Promise<ListedTask[]> {
  const User = data.defineModel<UserRow>(REL_TABLES.users);
  const Project = data.defineModel<ProjectRow>(REL_TABLES.projects);
  const Task = data.defineModel<TaskRow>(REL_TABLES.tasks).relations({
    project: () => data.belongsTo(Project),
    assignees: () =>
      data.manyToMany(User, { pivot: REL_TABLES.pivot, foreignPivotKey: "task_id", relatedPivotKey: "user_id" }),
  });
  return async (db) => {
    if (!Task.bound) for (const model of [User, Project, Task]) model.bind(db);
    const tasks = await Task.preload("project").preload("assignees").orderBy("id");
    return tasks.map((task) => ({
      id: task.id,
      title: task.title,
      project: task.project ? { id: task.project.id, name: task.project.name } : null,
      assignees: task.assignees.map((user) => ({ id: user.id, name: user.name })),
    }));
  };
}
